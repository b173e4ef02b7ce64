import Foundation
import Testing

/// `cdqi query`, `cdqi import` and `cdqi export`, from the built binary.
@Suite struct StoreCommandTests {
    static let document = #"""
        {"Department": [{"_id": "s", "name": "Sales"}, {"_id": "r", "name": "R&D, \"Labs\""}],
         "Employee": [
           {"_id": "a", "firstName": "Ann", "lastName": "Lee", "salary": 120000, "department": "r", "hireDate": "2020-02-29T12:00:00.5Z"},
           {"_id": "b", "firstName": "Bob", "lastName": "Ames", "salary": 50000, "department": "s", "nickName": "Bobby"}
         ]}
        """#

    /// The model by path, a folder, and a store holding ``document`` (Ann is Employee/1, Bob Employee/2;
    /// Sales is Department/1, R&D Department/2: insertion follows the document).
    private func seededStore() throws -> (folder: TemporaryFolder, model: String, store: String) {
        let folder = try TemporaryFolder()
        let model = CommandRunner.packageRoot.appendingPathComponent("Fixtures/Company.xcdatamodeld").path
        let documentURL = folder.url.appendingPathComponent("seed.json")
        try Data(Self.document.utf8).write(to: documentURL)
        let store = folder.url.appendingPathComponent("company.sqlite").path
        let output = try CommandRunner.run(["import", model, store, documentURL.path])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput == "imported 4 objects: 2 Department, 2 Employee\n")
        return (folder, model, store)
    }

    @Test func queryPrintsAnAlignedTable() throws {
        let (folder, model, store) = try seededStore()
        _ = folder
        let output = try CommandRunner.run(["query", model, store, "--entity", "Employee", "--order", "lastName"])
        #expect(output.status == 0, "\(output.standardError)")
        // Column widths: _id 10, firstName 9, hireDate 22, lastName 8, nickName 8, salary 6, department 12.
        #expect(
            output.standardOutput == """
                _id         firstName  hireDate                lastName  nickName  salary  department
                ----------  ---------  ----------------------  --------  --------  ------  ------------
                Employee/2  Bob        NULL                    Ames      Bobby     50000   Department/1
                Employee/1  Ann        2020-02-29T12:00:00.5Z  Lee       NULL      120000  Department/2

                """)
        #expect(output.standardError.isEmpty)
    }

    @Test func queryPrintsCSV() throws {
        let (folder, model, store) = try seededStore()
        _ = folder
        let output = try CommandRunner.run([
            "query", model, store, "--entity", "Employee", "--select", "firstName", "--select", "department.name",
            "--order", "firstName", "--format", "csv",
        ])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput == "firstName,department.name\r\nAnn,\"R&D, \"\"Labs\"\"\"\r\nBob,Sales\r\n")
    }

    @Test func queryPrintsJSON() throws {
        let (folder, model, store) = try seededStore()
        _ = folder
        let output = try CommandRunner.run([
            "query", model, store, "--entity", "Employee", "--select", "lastName", "--select", "salary",
            "--where", "salary > 60000", "--format", "json",
        ])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput == "[\n  {\"lastName\": \"Lee\", \"salary\": 120000}\n]\n")
    }

    @Test func queryGroupsAndCounts() throws {
        let (folder, model, store) = try seededStore()
        _ = folder
        let count = try CommandRunner.run(["query", model, store, "--entity", "Employee", "--count", "--where", "salary < 100000"])
        #expect(count.status == 0)
        #expect(count.standardOutput == "1\n")
        let all = try CommandRunner.run(["query", model, store, "--entity", "Department", "--count"])
        #expect(all.standardOutput == "2\n")
        let grouped = try CommandRunner.run([
            "query", model, store, "--entity", "Employee", "--select", "department.name", "--select", "sum:(salary)",
            "--group-by", "department.name", "--order", "department.name:desc", "--format", "csv",
        ])
        #expect(grouped.status == 0, "\(grouped.standardError)")
        // "Sales" > "R&D…" in code-point order, so descending puts Sales first.
        #expect(grouped.standardOutput == "department.name,sum:(salary)\r\nSales,50000\r\n\"R&D, \"\"Labs\"\"\",120000\r\n")
    }

    @Test func aBadPredicateIsAUsageErrorWithItsPosition() throws {
        let (folder, model, store) = try seededStore()
        _ = folder
        let output = try CommandRunner.run(["query", model, store, "--entity", "Employee", "--where", "salary > 5 AND"])
        #expect(output.status == 64)
        #expect(output.standardOutput.isEmpty)
        // "salary > 5 AND" has 14 characters; the missing operand is at the end, character 15.
        let lines = output.standardError.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first?.hasPrefix("cdqi: error: --where: ") == true)
        #expect(lines.first?.hasSuffix(" at character 15") == true)
        #expect(lines.dropFirst().prefix(2) == ["  salary > 5 AND", "                ^"])
    }

    @Test func unknownEntityAndKeyAreUsageErrors() throws {
        let (folder, model, store) = try seededStore()
        _ = folder
        let entity = try CommandRunner.run(["query", model, store, "--entity", "Ghost"])
        #expect(entity.status == 64)
        #expect(entity.standardError == "cdqi: error: the model has no entity 'Ghost' (entities: Department, Employee, TestEntity)\n")
        let key = try CommandRunner.run(["query", model, store, "--entity", "Employee", "--order", "salry"])
        #expect(key.status == 64)
        #expect(key.standardError.hasPrefix("cdqi: error: "))
        #expect(key.standardError.contains("salry"))
        let export = try CommandRunner.run(["export", model, store, "--entity", "Ghost"])
        #expect(export.status == 64)
    }

    @Test func queryAndExportNeverCreateAStore() throws {
        let folder = try TemporaryFolder()
        let model = CommandRunner.packageRoot.appendingPathComponent("Fixtures/Company.xcdatamodeld").path
        let store = folder.url.appendingPathComponent("absent.sqlite").path
        let query = try CommandRunner.run(["query", model, store, "--entity", "Employee"])
        #expect(query.status == 1)
        #expect(query.standardError == "cdqi: error: \(store): no such store (query and export never create one; import does)\n")
        let export = try CommandRunner.run(["export", model, store])
        #expect(export.status == 1)
        #expect(folder.files().isEmpty)
    }

    @Test func exportWritesTheDocumentAndItRoundTrips() throws {
        let (folder, model, store) = try seededStore()
        let export = try CommandRunner.run(["export", model, store])
        #expect(export.status == 0, "\(export.standardError)")
        #expect(
            export.standardOutput == #"""
                {
                  "Department": [
                    {"_id": "Department/1", "budget": null, "name": "Sales", "employees": ["Employee/2"]},
                    {"_id": "Department/2", "budget": null, "name": "R&D, \"Labs\"", "employees": ["Employee/1"]}
                  ],
                  "Employee": [
                    {"_id": "Employee/1", "firstName": "Ann", "hireDate": "2020-02-29T12:00:00.5Z", "lastName": "Lee", "nickName": null, "salary": 120000, "department": "Department/2"},
                    {"_id": "Employee/2", "firstName": "Bob", "hireDate": null, "lastName": "Ames", "nickName": "Bobby", "salary": 50000, "department": "Department/1"}
                  ],
                  "TestEntity": []
                }

                """#)
        let exported = folder.url.appendingPathComponent("export.json").path
        let written = try CommandRunner.run(["export", model, store, "-o", exported])
        #expect(written.status == 0)
        #expect(folder.contents("export.json") == export.standardOutput)

        let copy = folder.url.appendingPathComponent("copy.sqlite").path
        let imported = try CommandRunner.run(["import", model, copy, exported])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(try CommandRunner.run(["export", model, copy]).standardOutput == export.standardOutput)
    }

    @Test func aBadDocumentChangesNothing() throws {
        let (folder, model, store) = try seededStore()
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let bad = folder.url.appendingPathComponent("bad.json")
        try Data(#"{"Employee": [{"_id": "x", "firstName": "Zed", "department": "nowhere"}]}"#.utf8).write(to: bad)
        let output = try CommandRunner.run(["import", model, store, bad.path])
        #expect(output.status == 1)
        #expect(output.standardOutput.isEmpty)
        #expect(
            output.standardError == """
                cdqi: error: \(bad.path): the document does not fit the model (1 problem; nothing was imported):
                  - Employee "x", key 'department': no object in the document has the _id "nowhere"

                """)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        let count = try CommandRunner.run(["query", model, store, "--entity", "Employee", "--count"])
        #expect(count.standardOutput == "2\n")
    }

    @Test func aDryRunChecksAndWritesNothing() throws {
        let folder = try TemporaryFolder()
        let model = CommandRunner.packageRoot.appendingPathComponent("Fixtures/Company.xcdatamodeld").path
        let documentURL = folder.url.appendingPathComponent("seed.json")
        try Data(Self.document.utf8).write(to: documentURL)
        let store = folder.url.appendingPathComponent("company.sqlite").path
        let output = try CommandRunner.run(["import", model, store, documentURL.path, "--dry-run"])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput == "would import 4 objects: 2 Department, 2 Employee\n")
        #expect(folder.files() == ["seed.json"])
    }

    @Test(arguments: [["--limit", "0"], ["--offset", "-1"], ["--format", "xml"]])
    func badOptionsExit64(options: [String]) throws {
        let (folder, model, store) = try seededStore()
        _ = folder
        let output = try CommandRunner.run(["query", model, store, "--entity", "Employee"] + options)
        #expect(output.status == 64)
        #expect(output.standardOutput.isEmpty)
    }

    static let corpus = CommandRunner.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")

    @Test(.enabled(if: FileManager.default.fileExists(atPath: corpus.path), "../shared/corpus is not present beside this checkout"))
    func queriesACopiedAppleWrittenStore() throws {
        let corpus = Self.corpus
        let folder = try TemporaryFolder()
        let name = "alemar11__CoreDataPlus__SampleModel_V1.sqlite"
        let store = folder.url.appendingPathComponent(name)
        for suffix in ["", "-wal", "-shm"] {
            let source = corpus.appendingPathComponent("stores/\(name)\(suffix)")
            if FileManager.default.fileExists(atPath: source.path) {
                try FileManager.default.copyItem(at: source, to: URL(fileURLWithPath: store.path + suffix))
            }
        }
        let model = corpus.appendingPathComponent("models/alemar11__CoreDataPlus__SampleModel.xcdatamodeld").path
        func run(_ arguments: [String]) throws -> CommandRunner.Output {
            try CommandRunner.run(["query", model, store.path, "--model-version", "SampleModel"] + arguments)
        }
        // Counted with sqlite3 on the original file: 125 rows in ZCAR (Car and its two sub-entities), 103
        // of them with ZMAKER 'FIAT', 20 in ZPERSON; by last name the first two people are Mark Alves and
        // Bishop Boosalis.
        #expect(try run(["--entity", "Car", "--count"]).standardOutput == "125\n")
        #expect(try run(["--entity", "Car", "--count", "--where", "maker == 'FIAT'"]).standardOutput == "103\n")
        #expect(try run(["--entity", "Person", "--count"]).standardOutput == "20\n")
        let people = try run(["--entity", "Person", "--select", "firstName", "--select", "lastName", "--order", "lastName", "--limit", "2", "--format", "csv"])
        #expect(people.status == 0, "\(people.standardError)")
        #expect(people.standardOutput == "firstName,lastName\r\nMark,Alves\r\nBishop,Boosalis\r\n")

        let export = try CommandRunner.run(["export", model, store.path, "--model-version", "SampleModel", "--entity", "Person"])
        #expect(export.status == 0, "\(export.standardError)")
        #expect(export.standardOutput.components(separatedBy: "\"_id\": \"Person/").count - 1 == 20)
    }
}
