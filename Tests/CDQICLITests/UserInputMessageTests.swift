import Foundation
import Testing

/// What `cdqi` says about awkward user input (issue 15, finding 8): the user's own text, plain words,
/// the `cdqi: error:` prefix and exit 64 for usage problems, nothing written before a refusal.
@Suite struct UserInputMessageTests {
    static let model = CommandRunner.packageRoot.appendingPathComponent("Fixtures/Company.xcdatamodeld").path

    /// A store of two Employees: Ann (salary 120000) and Bob (salary 50000).
    private func store() throws -> (TemporaryFolder, String) {
        let folder = try TemporaryFolder()
        let document = folder.url.appendingPathComponent("seed.json")
        try Data(
            #"""
            {"Employee": [{"_id": "a", "firstName": "Ann", "lastName": "Lee", "salary": 120000},
                          {"_id": "b", "firstName": "Bob", "lastName": "Ames", "salary": 50000}]}
            """#.utf8
        ).write(to: document)
        let store = folder.url.appendingPathComponent("s.sqlite").path
        let output = try CommandRunner.run(["import", Self.model, store, document.path])
        #expect(output.status == 0, "\(output.standardError)")
        return (folder, store)
    }

    @Test("'salary ** 2 > 1': the message quotes the predicate as written (no slot name, no NUL byte)")
    func unsupportedOperatorQuotesTheUsersText() throws {
        let (folder, store) = try store()
        _ = folder
        let output = try CommandRunner.run(["query", Self.model, store, "--entity", "Employee", "--where", "salary ** 2 > 1"])
        #expect(output.status == 64)
        #expect(output.standardError == "cdqi: error: not supported in a fetch: 'salary ** 2'\n")
        #expect(!output.standardError.unicodeScalars.contains("\u{0}"))
    }

    @Test("a 2,000-term AND chain is the user's input: a plain error and exit 64, not SQLite's message and exit 1")
    func hugePredicateIsAUsageError() throws {
        let (folder, store) = try store()
        _ = folder
        let predicate = (0..<2000).map { "salary > \($0)" }.joined(separator: " AND ")
        let output = try CommandRunner.run(["query", Self.model, store, "--entity", "Employee", "--where", predicate])
        #expect(output.status == 64)
        #expect(output.standardError.hasPrefix("cdqi: error: not supported in a fetch: the request is too large for SQLite"))
        #expect(output.standardError.contains("use fewer terms"))
        #expect(!output.standardError.contains("SQLite error"))
    }

    @Test("a predicate starting with '-' is accepted after --where, as after --where=")
    func predicateStartingWithMinus() throws {
        let (folder, store) = try store()
        _ = folder
        // -salary > -60000 holds for Bob (50000) only.
        for arguments in [["--where", "-salary > -60000"], ["--where=-salary > -60000"]] {
            let output = try CommandRunner.run(
                ["query", Self.model, store, "--entity", "Employee", "--select", "firstName", "--format", "csv"] + arguments)
            #expect(output.status == 0, "\(output.standardError)")
            #expect(output.standardOutput == "firstName\r\nBob\r\n")
        }
    }

    @Test("an entity name over 255 bytes: refused before any file is written")
    func entityNameTooLongForAFileName() throws {
        let folder = try TemporaryFolder()
        let long = "E" + String(repeating: "x", count: 299)
        let contents = folder.url.appendingPathComponent("Long.xcdatamodeld/Long.xcdatamodel/contents")
        try FileManager.default.createDirectory(at: contents.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Alpha" representedClassName="Alpha" syncable="YES" codeGenerationType="class">
                    <attribute name="a" optional="YES" attributeType="String"/>
                </entity>
                <entity name="\(long)" representedClassName="\(long)" syncable="YES" codeGenerationType="class">
                    <attribute name="b" optional="YES" attributeType="String"/>
                </entity>
            </model>
            """.utf8
        ).write(to: contents)
        let output = try CommandRunner.run(["Long", "-o", "Out"], in: folder.url)
        #expect(output.status == 1)
        // "E" + 299 "x" + "Attribute.swift" = 315 bytes; the class file "E…x.swift" 306.
        #expect(output.standardError.contains("is 315 bytes, over the 255-byte limit of file names"), "\(output.standardError)")
        #expect(output.standardError.contains("is 306 bytes, over the 255-byte limit of file names"))
        #expect(folder.files(in: "Out").isEmpty)
    }
}
