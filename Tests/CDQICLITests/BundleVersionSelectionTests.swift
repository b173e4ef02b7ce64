import Foundation
import Testing

/// `cdqi query`, `export` and `import` given a model bundle open a store with the version that wrote it
/// (its entity version hashes), unless `--model-version` names one (issue 18, item 1).
@Suite struct BundleVersionSelectionTests {
    static let bundle = LibraryVersion1Store.bundle

    @Test("query and export read a 'Library' store with the bundle alone, through Item.addedAt (renamed in 'Library 2')")
    func queryAndExportPickTheStoresVersion() throws {
        let (folder, store) = try LibraryVersion1Store.make()
        _ = folder
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        // addedAt exists only in 'Library': a predicate on it parses only with that version.
        let query = try CommandRunner.run([
            "query", Self.bundle, store, "--entity", "Book", "--where", "addedAt < CAST(1001, 'NSDate')",
            "--select", "title", "--select", "shelf.name", "--format", "csv",
        ])
        #expect(query.status == 0, "\(query.standardError)")
        #expect(query.standardOutput == "title,shelf.name\r\nDune,Fiction\r\n")
        let export = try CommandRunner.run(["export", Self.bundle, store, "--entity", "Book"])
        #expect(export.status == 0, "\(export.standardError)")
        #expect(export.standardOutput.contains(#""addedAt": "2001-01-01T00:16:40Z""#))
        #expect(!export.standardOutput.contains("createdAt"))
        // Reading chose a version without writing anything.
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }

    @Test("import into an existing 'Library' store uses that version: a Book with addedAt goes in")
    func importPicksTheStoresVersion() throws {
        let (folder, store) = try LibraryVersion1Store.make()
        let document = folder.url.appendingPathComponent("more.json")
        try Data(#"{"Book": [{"_id": "h", "title": "Hyperion", "isbn": "0553283685", "addedAt": "2001-01-01T00:00:00Z"}]}"#.utf8)
            .write(to: document)
        let imported = try CommandRunner.run(["import", Self.bundle, store, document.path])
        #expect(imported.status == 0, "\(imported.standardError)")
        let count = try CommandRunner.run(["query", Self.bundle, store, "--entity", "Book", "--count"])
        #expect(count.standardOutput == "2\n", "\(count.standardError)")
    }

    @Test("import into a new store uses the current version 'Library 2': a Tag (not in 'Library') goes in")
    func importIntoANewStoreUsesTheCurrentVersion() throws {
        let folder = try TemporaryFolder()
        let document = folder.url.appendingPathComponent("tag.json")
        try Data(#"{"Tag": [{"_id": "t", "name": "classic"}]}"#.utf8).write(to: document)
        let store = folder.url.appendingPathComponent("new.sqlite").path
        let imported = try CommandRunner.run(["import", Self.bundle, store, document.path])
        #expect(imported.status == 0, "\(imported.standardError)")
        let inspect = try CommandRunner.run(["inspect", store, Self.bundle])
        #expect(inspect.standardOutput.contains("version: 'Library 2'\n"), "\(inspect.standardOutput)")
        let tags = try CommandRunner.run(["query", Self.bundle, store, "--entity", "Tag", "--select", "name", "--format", "csv"])
        #expect(tags.standardOutput == "name\r\nclassic\r\n", "\(tags.standardError)")
    }

    @Test("--model-version still wins: naming 'Library 2' for a 'Library' store is refused, with the matching version named")
    func anExplicitVersionWins() throws {
        let (folder, store) = try LibraryVersion1Store.make()
        _ = folder
        let output = try CommandRunner.run(["query", Self.bundle, store, "--entity", "Book", "--model-version", "Library 2"])
        #expect(output.status == 1)
        #expect(output.standardError.contains("the store was written for a different model:"))
        #expect(output.standardError.contains("  The store matches version \"Library\" of the bundle: add --model-version \"Library\"."))
    }

    @Test("a store that no version wrote (a Company store) is refused as before, with no version suggested")
    func noMatchingVersionKeepsTheRefusal() throws {
        let folder = try TemporaryFolder()
        let store = try CompanySalesStore.make(in: folder)
        for arguments in [["query", Self.bundle, store, "--entity", "Book"], ["export", Self.bundle, store]] {
            let output = try CommandRunner.run(arguments)
            #expect(output.status == 1)
            // The current version 'Library 2' is the one compared: its entity Tag is not in the store.
            #expect(output.standardError.contains("the store was written for a different model:"), "\(output.standardError)")
            #expect(output.standardError.contains("  - entity 'Tag' is in the model but not in the store"))
            #expect(!output.standardError.contains("The store matches version"))
        }
    }

    static let corpus = CommandRunner.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")

    @Test(
        "Apple's CoreDataPlus V2 store opens with its bundle alone: version SampleModel2 (current: SampleModel), with LuxuryCar",
        .enabled(if: FileManager.default.fileExists(atPath: corpus.path), "../shared/corpus is not present beside this checkout"))
    func appleWrittenStoreOfANonCurrentVersion() throws {
        let folder = try TemporaryFolder()
        let name = "alemar11__CoreDataPlus__SampleModel_V2.sqlite"
        let store = folder.url.appendingPathComponent(name).path
        for suffix in ["", "-wal", "-shm"] {
            let source = Self.corpus.appendingPathComponent("stores/\(name)\(suffix)")
            if FileManager.default.fileExists(atPath: source.path) {
                try FileManager.default.copyItem(atPath: source.path, toPath: store + suffix)
            }
        }
        let bundle = Self.corpus.appendingPathComponent("models/alemar11__CoreDataPlus__SampleModel.xcdatamodeld").path
        // Counted with sqlite3 on a copy: ZCAR holds 115 rows of Z_ENT 1 (Car), 5 of 2 (SportCar) and 5 of
        // 3 (ExpensiveSportCar, renamed LuxuryCar in SampleModel2, the only version that has it).
        let luxury = try CommandRunner.run(["query", bundle, store, "--entity", "LuxuryCar", "--count"])
        #expect(luxury.status == 0, "\(luxury.standardError)")
        #expect(luxury.standardOutput == "5\n")
        #expect(try CommandRunner.run(["query", bundle, store, "--entity", "Car", "--count"]).standardOutput == "125\n")
        // The current version has no LuxuryCar: naming it is an unknown entity (64), not a store refusal.
        let current = try CommandRunner.run(["query", bundle, store, "--entity", "LuxuryCar", "--model-version", "SampleModel"])
        #expect(current.status == 64)
    }
}
