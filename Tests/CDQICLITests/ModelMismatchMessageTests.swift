import Foundation
import Testing

/// A store refused as written for a different model says what differs (entities and properties) and,
/// when the bundle holds the version the store was written for, which one (issue 14, item 4).
@Suite struct ModelMismatchMessageTests {
    @Test("a store of 'Library' opened with --model-version 'Library 2': differences named, version suggested")
    func namesDifferencesAndTheMatchingVersion() throws {
        let folder = try TemporaryFolder()
        let bundle = try folder.copyFixture("Library.xcdatamodeld")
        let document = folder.url.appendingPathComponent("book.json")
        try Data(#"{"Book": [{"_id": "b", "title": "T", "isbn": "123456789X", "addedAt": "2020-01-01T00:00:00Z"}]}"#.utf8)
            .write(to: document)
        let store = folder.url.appendingPathComponent("library.sqlite").path
        let imported = try CommandRunner.run(["import", bundle.path, store, document.path, "--model-version", "Library"])
        #expect(imported.status == 0, "\(imported.standardError)")
        let before = try Data(contentsOf: URL(fileURLWithPath: store))

        // Without --model-version the bundle's matching version would be used (BundleVersionSelectionTests).
        for arguments in [["query", bundle.path, store, "--entity", "Book"], ["export", bundle.path, store]] {
            let output = try CommandRunner.run(arguments + ["--model-version", "Library 2"])
            #expect(output.status == 1)
            // Library 2 renamed Item.addedAt to createdAt (column ZCREATEDAT; the store has ZADDEDAT),
            // added Shelf.lastReviewedAt, and the entities Album, Media and Tag.
            let expected = [
                "the store was written for a different model:",
                "  - entity 'Album' is in the model but not in the store",
                "  - entity 'Tag' is in the model but not in the store",
                "  - entity 'Item' differs: property 'createdAt' is in the model but not in the store (no column ZCREATEDAT); "
                    + "the store has column ZADDEDAT, which no property of the model has",
                "  - entity 'Shelf' differs: property 'lastReviewedAt' is in the model but not in the store (no column ZLASTREVIEWEDAT)",
                "  The store matches version \"Library\" of the bundle: add --model-version \"Library\".",
            ]
            for line in expected {
                #expect(output.standardError.contains(line), "missing: \(line)\nin: \(output.standardError)")
            }
        }
        // Opening with the suggested version works, and nothing changed the file.
        let query = try CommandRunner.run(["query", bundle.path, store, "--entity", "Book", "--model-version", "Library", "--count"])
        #expect(query.standardOutput == "1\n", "\(query.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }
}
