import CDQILint
import CDQIModel
import Foundation
import Testing

/// `cdqi lint`'s checks, on Swift source written for the Company fixture (Department: budget, name,
/// employees ↔ Employee.department; Employee: firstName, lastName, nickName, salary (Integer 32),
/// hireDate, department). Each expected diagnostic was worked out from the source lines below.
@Suite struct QueryStringLinterTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private func lint(_ lines: [String]) throws -> QueryStringLinter.Report {
        let model = try ModelLoader().load(url: Self.packageRoot.appendingPathComponent("Fixtures/Company.xcdatamodeld")).model
        var report = QueryStringLinter.Report()
        try QueryStringLinter(model: model).lint(source: lines.joined(separator: "\n"), file: "App.swift", into: &report)
        return report
    }

    /// The 1-based column of the first `"` on a line: where a string argument's literal starts.
    private func quoteColumn(_ line: String, occurrence: Int = 1) -> Int {
        var seen = 0
        for (offset, character) in line.enumerated() where character == "\"" {
            seen += 1
            if seen == 2 * occurrence - 1 { return offset + 1 }
        }
        return 0
    }

    @Test func correctQueriesPassAndEveryKindOfStringIsChecked() throws {
        let lines = [
            "func ok(_ context: ManagedObjectContext) throws {",
            "    _ = try context.from(Employee.self).filter(\"lastName BEGINSWITH[c] %@\", \"smi\").all()",
            "    _ = try context.from(Employee.self)",
            "        .filter(\"department.name == %@ AND salary > %@\", \"Sales\", 50_000)",
            "        .order(\"department.name\", \"lastName\")",
            "        .all()",
            "    _ = try context.from(Department.self).filter(\"ANY employees.salary > %d\", 100).select(\"name\").groupBy(\"name\").all()",
            "    let request = FetchRequest(entityName: \"Employee\", predicate: try PredicateNode(format: \"nickName == nil\"))",
            "}",
        ]
        let report = try lint(lines)
        #expect(report.diagnostics == [])
        // filter ×3 (lines 2, 4, 7), order 2 (line 5), select 1 and groupBy 1 (line 7), PredicateNode 1 (line 8).
        #expect(report.checkedStrings == 8)
        #expect(report.checkedAgainstEntity == 8)
    }

    @Test func unknownKeysAndToManyMisuseAreErrorsAtTheirLiteral() throws {
        let lines = [
            "func bad(_ context: ManagedObjectContext) throws {",
            "    let employees = context.from(Employee.self)",
            "    _ = try employees",
            "        .filter(\"salry > %@\", 5)",
            "        .all()",
            "    let departments = Query<Department, Department>()",
            "    _ = departments.filter(\"employees.salary > 5\")",
            "    _ = context.from(Employee.self).order(\"department.name\", \"salry\")",
            "    _ = context.from(Department.self).order(\"employees.lastName\")",
            "}",
        ]
        let report = try lint(lines)
        let errors = report.diagnostics
        #expect(errors.count == 4)
        #expect(errors.allSatisfy { $0.severity == .error && $0.file == "App.swift" })
        #expect(errors.map(\.line) == [4, 7, 8, 9])
        #expect(errors[0].column == quoteColumn(lines[3]))
        #expect(errors[0].message.contains("unknown key 'salry' on entity 'Employee'"))
        #expect(errors[1].column == quoteColumn(lines[6]))
        #expect(errors[1].message.contains("to-many key not allowed here: 'employees.salary'"))
        #expect(errors[2].column == quoteColumn(lines[7], occurrence: 2))
        #expect(errors[2].message == "order(\"salry\"): unknown key 'salry' on entity 'Employee'")
        #expect(errors[3].message == "order(\"employees.lastName\"): 'employees' of entity 'Department' is a to-many relationship: it has no single value here")
        #expect(errors[0].description.hasPrefix("App.swift:4:\(quoteColumn(lines[3])): error: "))
    }

    @Test func syntaxErrorsPointIntoTheLiteral() throws {
        let lines = [
            "func syntax(_ query: Query<Employee, Employee>) throws {",
            "    _ = query.filter(\"lastName == %@ AND\", \"x\")",
            "    _ = unknownReceiver.filter(\"salary > > 2\")",
            "}",
        ]
        let report = try lint(lines)
        #expect(report.diagnostics.count == 2)
        // The literal's content starts one column after its quote; the error is at the end of the input
        // (offset 18 of "lastName == %@ AND") and at the second '>' (offset 9 of "salary > > 2").
        #expect(report.diagnostics[0].column == quoteColumn(lines[1]) + 1 + 18)
        #expect(report.diagnostics[1].column == quoteColumn(lines[2]) + 1 + 9)
        #expect(report.diagnostics.allSatisfy { $0.severity == .error })
        // The receiver of the second is unknown: its keys are not checked, only its syntax.
        #expect(report.checkedAgainstEntity == 1)
    }

    @Test func constantsOfAnotherKindAreWarnings() throws {
        let lines = [
            "func kinds(_ context: ManagedObjectContext) throws {",
            "    _ = try context.from(Employee.self).filter(\"salary == %@\", \"50000\").all()",
            "    _ = try context.from(Employee.self).filter(\"lastName IN %@\", [1, 2]).all()",
            "    _ = try context.from(Employee.self).filter(\"hireDate > 3\").all()",
            "    let r = FetchRequest(entityName: \"Department\", predicate: try PredicateNode(format: \"name == %@\", 42))",
            "}",
        ]
        let report = try lint(lines)
        // Line 3's argument is an array expression, known only at run time: not checked.
        #expect(report.diagnostics.map(\.line) == [2, 4, 5])
        #expect(report.diagnostics.allSatisfy { $0.severity == .warning })
        #expect(report.diagnostics[0].message.hasPrefix("'salary == \"50000\"' compares 'salary' (Integer 32, a number) with a string"))
        #expect(report.diagnostics[1].message.hasPrefix("'hireDate > 3' compares 'hireDate' (Date, a date) with a number"))
        #expect(report.diagnostics[2].message.hasPrefix("'name == 42' compares 'name' (String, a string) with a number"))
        #expect(!report.hasErrors)
    }

    @Test func placeholdersWithoutArgumentsAndDynamicKeys() throws {
        let lines = [
            "func dynamic(_ context: ManagedObjectContext, key: String, value: Any) throws {",
            "    _ = try context.from(Employee.self).filter(\"firstName == %@ AND lastName == %@\", \"Ann\").all()",
            "    _ = try context.from(Employee.self).filter(\"%K == %@\", key, value).all()",
            "    _ = try context.from(Employee.self).filter(\"%K == %@\", \"nope\", 1).all()",
            "    _ = try context.from(Employee.self).filter(\"lastName == '%@'\").all()",
            "}",
        ]
        let report = try lint(lines)
        #expect(report.diagnostics.map(\.line) == [2, 4])
        #expect(report.diagnostics[0].message.hasPrefix("the format has 2 placeholders but 1 argument"))
        // A literal key is checked; a key known only at run time is not. A quoted '%@' is no placeholder.
        #expect(report.diagnostics[1].message.contains("unknown key 'nope' on entity 'Employee'"))
    }

    @Test func stringsInCommentsAndLiteralsAreNotCalls() throws {
        let lines = [
            "// _ = context.from(Employee.self).filter(\"bogus ==\")",
            "/* _ = context.from(Employee.self).filter(\"bogus ==\") /* nested */ still a comment */",
            "let text = \".filter(\\\"bogus ==\\\")\"",
            "let raw = #\"context.from(Employee.self).filter(\"bogus ==\")\"#",
            "let interpolated = query.filter(\"lastName == \\(name)\")",
        ]
        let report = try lint(lines)
        #expect(report.diagnostics == [])
        // The interpolated format is known only at run time.
        #expect(report.checkedStrings == 0)
    }
}
