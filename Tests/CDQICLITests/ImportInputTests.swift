import Foundation
import Testing

/// `cdqi import` reads its document from a file or from standard input (`-`), a chunk at a time, and
/// names a document it cannot read.
@Suite struct ImportInputTests {
    private let model = CommandRunner.packageRoot.appendingPathComponent("Fixtures/Company.xcdatamodeld").path

    @Test func standardInputImportsAsAFileDoes() throws {
        let folder = try TemporaryFolder()
        let document = folder.url.appendingPathComponent("seed.json")
        try Data(StoreCommandTests.document.utf8).write(to: document)
        let fromFile = folder.url.appendingPathComponent("file.sqlite").path
        let fromInput = folder.url.appendingPathComponent("input.sqlite").path
        #expect(try CommandRunner.run(["import", model, fromFile, document.path]).status == 0)
        let dryRun = try CommandRunner.run(["import", model, fromInput, "-", "--dry-run"], input: document)
        #expect(dryRun.standardOutput == "would import 4 objects: 2 Department, 2 Employee\n")
        let output = try CommandRunner.run(["import", model, fromInput, "-"], input: document)
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput == "imported 4 objects: 2 Department, 2 Employee\n")
        let exported = try CommandRunner.run(["export", model, fromInput])
        #expect(exported.standardOutput.contains(#""lastName": "Ames""#))
        #expect(exported.standardOutput == (try CommandRunner.run(["export", model, fromFile])).standardOutput)
    }

    @Test func aBadDocumentOnStandardInputIsNamedAndChangesNothing() throws {
        let folder = try TemporaryFolder()
        let document = folder.url.appendingPathComponent("bad.json")
        try Data("{\"Employee\": [\n  {\"_id\": \"e1\",}\n]}".utf8).write(to: document)
        let output = try CommandRunner.run(["import", model, folder.url.appendingPathComponent("s.sqlite").path, "-"], input: document)
        #expect(output.status == 1)
        #expect(output.standardError == "cdqi: error: -: the document is not valid JSON: line 2, column 16: expected a key (a string in double quotes)\n")
        #expect(folder.files() == ["bad.json"])
    }

    @Test func anUnreadableDocumentIsNamed() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("s.sqlite").path
        let missing = try CommandRunner.run(["import", model, store, "missing.json"], in: folder.url)
        #expect(missing.status == 1)
        #expect(missing.standardError == "cdqi: error: missing.json: cannot read the document: No such file or directory\n")
        let directory = try CommandRunner.run(["import", model, store, "."], in: folder.url)
        #expect(directory.standardError == "cdqi: error: .: cannot read the document: Is a directory\n")
        #expect(folder.files().isEmpty)
    }
}
