import CDQIInterchange
import CDQIModel
import CDQIStore
import Foundation
import Testing

/// An import into an existing rollback-journal store leaves its journal mode alone: a refused import
/// leaves the file byte for byte as it was (issue 15), and an accepted one adds rows and nothing else
/// (the file stays a rollback-journal file, with no `-wal` beside it).
@Suite struct JournalModeImportTests {
    /// Bytes 18 and 19 of a SQLite header: 1 and 1 for a rollback-journal file, 2 and 2 for WAL.
    private static func formatVersions(_ url: URL) throws -> [UInt8] {
        Array(try Data(contentsOf: url).prefix(20).suffix(2))
    }

    /// A Developers store holding the language "Rust", switched to a rollback journal.
    private static func journalStore(in folder: InterchangeTestSupport.Folder) throws -> (ManagedObjectModel, URL) {
        let model = try InterchangeTestSupport.model("Developers")
        let store = folder.file("developers.sqlite")
        try InterchangeTestSupport.importJSON(#"{"Language": [{"_id": "l0", "name": "Rust"}]}"#, model: model, into: store)
        do {
            let connection = try SQLiteConnection(path: store.path)
            try connection.execute("PRAGMA journal_mode = DELETE")
        }
        #expect(try formatVersions(store) == [1, 1])
        return (model, store)
    }

    @Test func aRefusedImportLeavesTheFileByteForByte() throws {
        let folder = try InterchangeTestSupport.Folder()
        let (model, store) = try Self.journalStore(in: folder)
        let before = try folder.snapshot()
        #expect(before.keys.sorted() == ["developers.sqlite"])
        // "Rust" is taken: the uniqueness constraint refuses the save, after the store was opened.
        #expect(throws: InterchangeError.self) {
            try InterchangeTestSupport.importJSON(#"{"Language": [{"_id": "l1", "name": "Rust"}]}"#, model: model, into: store)
        }
        #expect(try folder.snapshot() == before)
    }

    @Test func anAcceptedImportKeepsTheRollbackJournal() throws {
        let folder = try InterchangeTestSupport.Folder()
        let (model, store) = try Self.journalStore(in: folder)
        let summary = try InterchangeTestSupport.importJSON(
            #"{"Language": [{"_id": "l1", "name": "Swift"}, {"_id": "l2", "name": "Go"}]}"#, model: model, into: store)
        #expect(summary.total == 2)
        #expect(try Self.formatVersions(store) == [1, 1])
        #expect(try folder.snapshot().keys.sorted() == ["developers.sqlite"])
        let languages = try #require(
            try InterchangeTestSupport.objects(in: InterchangeTestSupport.export(model: model, from: store))["Language"])
        #expect(Set(languages.values.compactMap { $0["name"] }) == [.string("Rust"), .string("Swift"), .string("Go")])
    }
}
