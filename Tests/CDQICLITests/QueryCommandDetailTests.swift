import Foundation
import Testing

/// `cdqi query`'s details: negative windows refused with a message, an empty result said out loud,
/// comparisons with constants of another kind warned about, and `--explain`.
@Suite struct QueryCommandDetailTests {
    /// A Company store with two employees: Ann Lee (120000) and Bob Ames (50000).
    private func store() throws -> (TemporaryFolder, String, String) {
        let folder = try TemporaryFolder()
        let model = CommandRunner.packageRoot.appendingPathComponent("Fixtures/Company.xcdatamodeld").path
        let document = folder.url.appendingPathComponent("seed.json")
        try Data(#"{"Employee": [{"firstName": "Ann", "lastName": "Lee", "salary": 120000}, {"firstName": "Bob", "lastName": "Ames", "salary": 50000}]}"#.utf8)
            .write(to: document)
        let store = folder.url.appendingPathComponent("company.sqlite").path
        let output = try CommandRunner.run(["import", model, store, document.path])
        try #require(output.status == 0, "\(output.standardError)")
        return (folder, model, store)
    }

    @Test(arguments: [(["--limit", "-1"], "--limit -1 must be 1 or more."), (["--offset", "-2"], "--offset -2 must be 0 or more.")])
    func negativeWindowsAreRefusedWithTheirValue(options: [String], message: String) throws {
        let (folder, model, store) = try store()
        _ = folder
        let output = try CommandRunner.run(["query", model, store, "--entity", "Employee"] + options)
        #expect(output.status == 64)
        #expect(output.standardError.contains(message), "\(output.standardError)")
        #expect(!output.standardError.contains("Missing value"))
    }

    @Test func anEmptyResultSaysZeroRows() throws {
        let (folder, model, store) = try store()
        _ = folder
        let table = try CommandRunner.run(["query", model, store, "--entity", "Employee", "--where", "salary > 1000000"])
        #expect(table.status == 0)
        #expect(table.standardOutput.hasSuffix("\n(0 rows)\n"))
        let csv = try CommandRunner.run(["query", model, store, "--entity", "Employee", "--where", "salary > 1000000", "--format", "csv"])
        #expect(csv.status == 0)
        #expect(!csv.standardOutput.contains("0 rows"))
        #expect(csv.standardError == "cdqi: 0 rows\n")
    }

    @Test func aConstantOfAnotherKindIsAWarningNamingTheKeyAndBothKinds() throws {
        let (folder, model, store) = try store()
        _ = folder
        let output = try CommandRunner.run(["query", model, store, "--entity", "Employee", "--where", #"salary == "120000""#])
        #expect(output.status == 0)
        #expect(
            output.standardError.hasPrefix(
                #"cdqi: warning: 'salary == "120000"' compares 'salary' (Integer 32, a number) with a string"#))
        #expect(output.standardOutput.hasSuffix("(0 rows)\n"))
    }

    @Test func explainPrintsTheSQLThePlanAndTheIndexToAdd() throws {
        let (folder, model, store) = try store()
        _ = folder
        let output = try CommandRunner.run(["query", model, store, "--entity", "Employee", "--where", "salary > 100000", "--explain"])
        #expect(output.status == 0, "\(output.standardError)")
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("SELECT ") == true)
        #expect(lines.contains("bindings: 100000"))
        #expect(lines.contains("plan:"))
        #expect(lines.contains { $0.hasPrefix("warning: the fetch reads every row of ZEMPLOYEE to filter on 'salary'") })
    }
}
