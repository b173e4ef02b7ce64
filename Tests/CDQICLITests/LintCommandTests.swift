import Foundation
import Testing

/// `cdqi lint` end to end: finding the model among the paths, printing compiler-style diagnostics with
/// paths relative to the current folder, and the exit status.
@Suite struct LintCommandTests {
    private func project(_ source: String) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.copyFixture("Company.xcdatamodeld", into: "App")
        try source.write(to: folder.url.appendingPathComponent("App/Use.swift"), atomically: true, encoding: .utf8)
        return folder
    }

    @Test func errorsAndWarningsPrintAsCompilersPrintThemAndExit1() throws {
        let folder = try project(
            """
            func f(_ context: ManagedObjectContext) throws {
                _ = try context.from(Employee.self).filter("salry > %@", 5).all()
                _ = try context.from(Employee.self).filter("salary == %@", "x").all()
            }
            """)
        let output = try CommandRunner.run(["lint", "App"], in: folder.url)
        #expect(output.status == 1)
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        // The literals start at column 48 of lines 2 and 3 (4 spaces, then `_ = try context.from(Employee.self).filter(`).
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("App/Use.swift:2:48: error: unknown key 'salry' on entity 'Employee'") == true)
        #expect(lines.last?.hasPrefix("App/Use.swift:3:48: warning: 'salary == \"x\"' compares 'salary'") == true)
        #expect(output.standardError.contains("2 query strings in 1 file (2 against their entity) checked against the Company model: 1 error, 1 warning"))
    }

    @Test func warningsAloneExit0() throws {
        let folder = try project(
            """
            let q = Query<Employee, Employee>().filter("hireDate > 3")
            """)
        let output = try CommandRunner.run(["lint", "App"], in: folder.url)
        #expect(output.status == 0)
        #expect(output.standardOutput.contains("App/Use.swift:1:44: warning: 'hireDate > 3'"))
    }

    @Test func theModelMustBeFoundOrNamed() throws {
        let folder = try project("let q = 1\n")
        let noModel = try CommandRunner.run(["lint", "App/Use.swift"], in: folder.url)
        #expect(noModel.status == 64)
        #expect(noModel.standardError.contains("no model among the paths; name it with --model"))
        let named = try CommandRunner.run(["lint", "App/Use.swift", "--model", "Company"], in: folder.url)
        #expect(named.status == 0)
        let missing = try CommandRunner.run(["lint", "Nope"], in: folder.url)
        #expect(missing.status == 64)
        #expect(missing.standardError.contains("Nope: error: no such file or folder"))
    }
}
