import CDQIModel
import CDQIStore
import Foundation
import Testing

/// A store left with a hot rollback journal (a write interrupted by a crash) is read, read-only, as it
/// will be once rolled back, and its files stay byte for byte as they were: the read goes through a
/// rolled-back copy, which is removed afterwards (issue 15, the rollback-journal kill mode).
@Suite struct InterruptedWriteReadTests {
    /// A rollback-journal Company store with 40 employees, copied while another connection is in the
    /// middle of deleting all of them (with a one-page cache, so the deletion spills into the file):
    /// the copy is a file with a hot journal beside it, as a crash leaves it.
    private static func storeWithHotJournal(in folder: URL) throws -> URL {
        let model = try StoreTestSupport.fixtureModel("Company")
        let original = folder.appendingPathComponent("original.sqlite")
        do {
            let container = try PersistentContainer(model: model, url: original, readerCount: 0)
            let context = container.viewContext
            for index in 0..<40 {
                let employee = try context.insertNewObject(forEntityName: "Employee")
                try employee.setValue("F\(index)", forKey: "firstName")
                try employee.setValue("L\(index)", forKey: "lastName")
                try employee.setValue(String(repeating: "n", count: 900), forKey: "nickName")
            }
            try context.save()
        }
        let writer = try SQLiteConnection(path: original.path, mode: .readWrite)
        try writer.execute("PRAGMA journal_mode = DELETE")
        try writer.execute("PRAGMA cache_size = 1")
        try writer.execute("BEGIN IMMEDIATE")
        try writer.execute("DELETE FROM ZEMPLOYEE")
        let crashed = folder.appendingPathComponent("crashed")
        try FileManager.default.createDirectory(at: crashed, withIntermediateDirectories: false)
        let store = crashed.appendingPathComponent("Company.sqlite")
        try FileManager.default.copyItem(atPath: original.path + "-journal", toPath: store.path + "-journal")
        try FileManager.default.copyItem(atPath: original.path, toPath: store.path)
        try writer.execute("ROLLBACK")
        return store
    }

    private static func files(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    private static func rollbackCopies() throws -> Set<String> {
        Set(
            try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
                .filter { $0.hasPrefix("cdqi-rollback-") })
    }

    @Test func aReadOnlyStoreReadsTheRolledBackStateAndWritesNothing() throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let store = try Self.storeWithHotJournal(in: folder)
        let before = try Self.files(store.deletingLastPathComponent())
        #expect(before.keys.sorted() == ["Company.sqlite", "Company.sqlite-journal"])
        // A plain read-only connection refuses the file: only a rollback makes it readable.
        #expect(throws: SQLiteError.self) {
            let plain = try SQLiteConnection(path: store.path, mode: .readOnly)
            let statement = try plain.prepareUncached("SELECT COUNT(*) FROM ZEMPLOYEE")
            _ = try statement.step()
        }
        // The folder of the copy this store reads (other tests running meanwhile make copies of their own).
        var copyFolder = ""
        do {
            let readOnly = try SQLiteStore(model: try StoreTestSupport.fixtureModel("Company"), url: store, readOnly: true)
            // The 40 employees the interrupted transaction was deleting are all there.
            #expect(try readOnly.rowCount(of: "Employee") == 40)
            copyFolder = URL(fileURLWithPath: readOnly.connection.path).deletingLastPathComponent().lastPathComponent
        }
        #expect(try Self.files(store.deletingLastPathComponent()) == before)
        #expect(copyFolder.hasPrefix("cdqi-rollback-"))
        #expect(try !Self.rollbackCopies().contains(copyFolder))
    }

    @Test func aContextOnAReadOnlyCoordinatorReadsTheRolledBackStateThroughItsReaders() throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let store = try Self.storeWithHotJournal(in: folder)
        let before = try Self.files(store.deletingLastPathComponent())
        do {
            let coordinator = try PersistentStoreCoordinator(
                model: try StoreTestSupport.fixtureModel("Company"), url: store, readOnly: true)
            let context = ManagedObjectContext(coordinator: coordinator)
            let employees = try context.fetch(FetchRequest(entityName: "Employee"))
            #expect(employees.count == 40)
            #expect(Set(try employees.map { try $0.value(forKey: "firstName") as? String }) == Set((0..<40).map { "F\($0)" }))
        }
        #expect(try Self.files(store.deletingLastPathComponent()) == before)
    }

    @Test func readingForInspectionWritesNothingEither() throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let store = try Self.storeWithHotJournal(in: folder)
        let before = try Self.files(store.deletingLastPathComponent())
        do {
            let connection = try SQLiteConnection.openForReading(path: store.path)
            let statement = try connection.prepareUncached("SELECT COUNT(*) FROM ZEMPLOYEE")
            #expect(try statement.step())
            #expect(statement.int64(0) == 40)
        }
        #expect(try Self.files(store.deletingLastPathComponent()) == before)
    }
}
