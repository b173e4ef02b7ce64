import CDQIStore
import Foundation
import Testing

/// `cdqi check` and damaged stores met by the other store commands (issue 15, finding 7).
@Suite struct CheckCommandTests {
    static let developersModel = CommandRunner.packageRoot.appendingPathComponent("Fixtures/Developers.xcdatamodeld").path
    static let companyModel = CommandRunner.packageRoot.appendingPathComponent("Fixtures/Company.xcdatamodeld").path

    /// Developer a (Z_PK 1) speaks Swift (Language 1) and leads Project 1, whose members are a and b.
    static let developers = #"""
        {"Developer": [{"_id": "a", "firstName": "A", "lastName": "A", "languages": ["s"]}, {"_id": "b", "firstName": "B", "lastName": "B"}],
         "Language": [{"_id": "s", "name": "Swift"}],
         "Project": [{"_id": "p", "name": "P", "lead": "a", "members": ["a", "b"]}]}
        """#

    private func developersStore() throws -> (TemporaryFolder, String) {
        let folder = try TemporaryFolder()
        let document = folder.url.appendingPathComponent("dev.json")
        try Data(Self.developers.utf8).write(to: document)
        let store = folder.url.appendingPathComponent("dev.sqlite").path
        let output = try CommandRunner.run(["import", Self.developersModel, store, document.path])
        #expect(output.status == 0, "\(output.standardError)")
        return (folder, store)
    }

    private func execute(_ sql: String, on store: String) throws {
        let connection = try SQLiteConnection(path: store, mode: .readWrite)
        try connection.execute(sql)
    }

    @Test("a sound store: 'STORE: ok', exit 0, with and without the model")
    func soundStore() throws {
        let (folder, store) = try developersStore()
        _ = folder
        for arguments in [["check", store], ["check", store, Self.developersModel]] {
            let output = try CommandRunner.run(arguments)
            #expect(output.status == 0, "\(output.standardError)")
            #expect(output.standardOutput == "\(store): ok\n")
        }
    }

    @Test("Core Data's references: dangling to-one, join rows to missing rows, unknown Z_ENT, Z_MAX below the largest key")
    func bookkeepingProblems() throws {
        let (folder, store) = try developersStore()
        _ = folder
        try execute(
            """
            UPDATE ZPROJECT SET ZLEAD = 7 WHERE Z_PK = 1;
            INSERT INTO Z_1LANGUAGES (Z_1DEVELOPERS, Z_2LANGUAGES) VALUES (9, 1);
            INSERT INTO Z_1LANGUAGES (Z_1DEVELOPERS, Z_2LANGUAGES) VALUES (2, 5);
            UPDATE ZLANGUAGE SET Z_ENT = 999 WHERE Z_PK = 1;
            UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_NAME = 'Developer';
            """, on: store)
        let output = try CommandRunner.run(["check", store, Self.developersModel])
        #expect(output.status == 1)
        // Tables: ZDEVELOPER (1), ZLANGUAGE (2), ZPROJECT (3); Z_1LANGUAGES joins Developer.languages.
        #expect(
            output.standardOutput == """
                \(store): 5 problems
                  - ZLANGUAGE row Z_PK 1 has Z_ENT 999, which is no entity of the model
                  - Z_PRIMARYKEY.Z_MAX of Developer (Z_ENT 1) is 1, below the largest Z_PK 2 of ZDEVELOPER: new objects would reuse keys
                  - Project Z_PK 1: lead (ZPROJECT.ZLEAD) names Developer Z_PK 7, which ZDEVELOPER does not have
                  - join table Z_1LANGUAGES (Developer.languages): Z_1DEVELOPERS names Developer Z_PK 9, which ZDEVELOPER does not have
                  - join table Z_1LANGUAGES (Developer.languages): Z_2LANGUAGES names Language Z_PK 5, which ZLANGUAGE does not have

                """)
        // Without the model, only what needs none: Z_ENT (against Z_PRIMARYKEY) and Z_MAX.
        let withoutModel = try CommandRunner.run(["check", store])
        #expect(withoutModel.status == 1)
        #expect(
            withoutModel.standardOutput == """
                \(store): 2 problems
                  - ZLANGUAGE row Z_PK 1 has Z_ENT 999, which is no entity of the store
                  - Z_PRIMARYKEY.Z_MAX of Developer (Z_ENT 1) is 1, below the largest Z_PK 2 of ZDEVELOPER: new objects would reuse keys

                """)
    }

    /// A Company store of 400 Employees with long names (several pages of ZEMPLOYEE), closed.
    private func companyStore(in folder: TemporaryFolder) throws -> String {
        let employees = (0..<400).map {
            #"{"_id": "e\#($0)", "firstName": "\#(String(repeating: "f", count: 200))", "lastName": "L\#($0)", "salary": \#($0)}"#
        }
        let document = folder.url.appendingPathComponent("company.json")
        try Data(#"{"Employee": [\#(employees.joined(separator: ", "))]}"#.utf8).write(to: document)
        let store = folder.url.appendingPathComponent("company.sqlite").path
        let output = try CommandRunner.run(["import", Self.companyModel, store, document.path])
        #expect(output.status == 0, "\(output.standardError)")
        return store
    }

    /// Overwrites 4096 bytes of the file at `offset` with zeros.
    private func zero(_ store: String, at offset: UInt64) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: store))
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: Data(count: 4096))
        try handle.close()
    }

    @Test("a store with a zeroed page: check reports integrity_check's findings; import refuses it and leaves it byte for byte")
    func zeroedPage() throws {
        let folder = try TemporaryFolder()
        let store = try companyStore(in: folder)
        // Page 20 (offset 19 × 4096) is a leaf of ZEMPLOYEE: the file holds ~25 pages of 4 KiB.
        try zero(store, at: 19 * 4096)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))

        let check = try CommandRunner.run(["check", store, Self.companyModel])
        #expect(check.status == 1)
        #expect(check.standardOutput.hasPrefix("\(store): "))
        #expect(check.standardOutput.contains("integrity_check"), "\(check.standardOutput)")

        let document = folder.url.appendingPathComponent("one.json")
        try Data(#"{"Employee": [{"_id": "n", "firstName": "N", "lastName": "N"}]}"#.utf8).write(to: document)
        let importing = try CommandRunner.run(["import", Self.companyModel, store, document.path])
        #expect(importing.status == 1)
        #expect(importing.standardError.contains("\(store): the store is damaged"), "\(importing.standardError)")
        #expect(!importing.crashed)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }

    @Test("a file that is not a database: check and query say the store is damaged")
    func notADatabase() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("junk.sqlite")
        try Data(String(repeating: "not a database ", count: 400).utf8).write(to: store)
        let check = try CommandRunner.run(["check", store.path])
        #expect(check.status == 1)
        #expect(check.standardOutput.contains("the store is damaged"), "\(check.standardOutput)")
        let query = try CommandRunner.run(["query", Self.companyModel, store.path, "--entity", "Employee"])
        #expect(query.status == 1)
        #expect(query.standardError.contains("the store is damaged"), "\(query.standardError)")
    }
}
