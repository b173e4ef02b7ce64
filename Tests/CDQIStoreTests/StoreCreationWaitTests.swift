import CDQIModel
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// Opening a store that another connection is creating, while the creator holds its lock for longer
/// than SQLite's busy timeout (5 s): what a loaded CI machine did to two processes creating one store.
@Suite("Opening a store another connection is still creating")
struct StoreCreationWaitTests {
    /// What the creator thread reports: the UUID of the store it created, or its error.
    final class CreatorOutcome: @unchecked Sendable {
        // Written by the creator thread before it signals `done`, read by the test after waiting for it.
        var uuid: Result<String, any Error> = .failure(CancellationError())
    }

    /// Creates the Company store at `url` the way ``SQLiteStore`` does (tables, entity rows and
    /// metadata in one write transaction), but keeps its transaction open for `seconds` after
    /// signalling `locked`, in `journalMode` ("delete": an exclusive lock on a rollback-journal file;
    /// "wal": the write lock of a WAL file). Returns the UUID it wrote.
    static func createHoldingLock(
        model: ManagedObjectModel, url: URL, journalMode: String, seconds: Double, locked: DispatchSemaphore
    ) throws -> String {
        let connection = try SQLiteConnection(path: url.path)
        let schema = StoreSchema(model: model)
        let metadata = StoreMetadata(model: model)
        if journalMode == "wal" { try connection.execute("PRAGMA journal_mode = WAL") }
        try connection.execute(journalMode == "wal" ? "BEGIN IMMEDIATE" : "BEGIN EXCLUSIVE")
        for statement in StoreSchema.bookkeepingStatements + schema.createStatements {
            try connection.execute(statement)
        }
        for entity in schema.entities {
            let insert = try connection.prepareUncached("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)")
            try insert.bind(Int64(entity.number), at: 1)
            try insert.bind(entity.name, at: 2)
            try insert.bind(Int64(entity.superNumber), at: 3)
            try insert.run()
        }
        let insert = try connection.prepareUncached("INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)")
        try insert.bind(metadata.uuid, at: 1)
        try insert.bind(try metadata.propertyList(), at: 2)
        try insert.run()
        locked.signal()
        Thread.sleep(forTimeInterval: seconds)
        try connection.execute("COMMIT")
        return metadata.uuid
    }

    @Test(
        "an open waits past the busy timeout for a creator holding its lock, then opens the creator's store",
        arguments: ["delete", "wal"])
    func waitsForSlowCreator(journalMode: String) throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = folder.appendingPathComponent("Slow.sqlite")
        let model = try StoreTestSupport.fixtureModel("Company")
        let locked = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let outcome = CreatorOutcome()
        Thread.detachNewThread {
            outcome.uuid = Result {
                try Self.createHoldingLock(model: model, url: url, journalMode: journalMode, seconds: 7, locked: locked)
            }
            // A failure before locking must not leave the test waiting.
            locked.signal()
            done.signal()
        }
        locked.wait()
        let start = Date()
        let opened = Result { try SQLiteStore(model: model, url: url) }
        let waited = Date().timeIntervalSince(start)
        done.wait()
        let created = try outcome.uuid.get()
        let store = try opened.get()
        // The creator's store, not a second one made over it.
        #expect(store.metadata.uuid == created)
        // The creator held its lock for 7 s from before the open started: the open waited past 5 s.
        #expect(waited > 5.5)
        let entities = try store.connection.prepareUncached("SELECT COUNT(*) FROM Z_PRIMARYKEY")
        #expect(try entities.step())
        #expect(entities.int64(0) == 3)  // Department, Employee, TestEntity
        let metadataRows = try store.connection.prepareUncached("SELECT COUNT(*) FROM Z_METADATA")
        #expect(try metadataRows.step())
        #expect(metadataRows.int64(0) == 1)
        #expect(store.connection.journalMode == "wal")
        let check = try store.connection.prepareUncached("PRAGMA integrity_check")
        #expect(try check.step())
        #expect(check.string(0) == "ok")
    }

    @Test("a store kept locked past the wait limit is a typed error naming it, after several tries")
    func lockedTooLong() {
        var attempts = 0
        let path = "/tmp/never/Locked.sqlite"
        do {
            _ = try SQLiteStore.waitingForOtherConnections(path: path, limit: .milliseconds(100), pause: .milliseconds(10)) {
                () throws -> Int in
                attempts += 1
                throw SQLiteError(code: 5, extendedCode: 5, message: "database is locked", sql: "BEGIN IMMEDIATE")
            }
            Issue.record("no error")
        } catch StoreError.locked(let lockedPath, _) {
            #expect(lockedPath == path)
            #expect(StoreError.locked(path: path, seconds: 60).description.hasPrefix("/tmp/never/Locked.sqlite: "))
        } catch {
            Issue.record("unexpected error \(error)")
        }
        // Pauses of 10, 20 and 40 ms fit in 100 ms, the next (80 ms) does not: 4 tries on an idle machine.
        #expect(attempts >= 2 && attempts <= 4)
    }

    @Test("only SQLITE_BUSY is tried again: other errors come out of the first try unchanged")
    func otherErrorsAreNotRetried() {
        var attempts = 0
        let damaged = StoreError.damagedStore(path: "/tmp/S.sqlite", reason: "file is not a database")
        #expect(throws: damaged) {
            try SQLiteStore.waitingForOtherConnections(path: "/tmp/S.sqlite", limit: .seconds(5)) { () throws -> Int in
                attempts += 1
                throw damaged
            }
        }
        #expect(attempts == 1)
        // A busy error wrapped in a store error is waited on too; the second try succeeds.
        attempts = 0
        let value = try? SQLiteStore.waitingForOtherConnections(path: "/tmp/S.sqlite", limit: .seconds(5)) { () throws -> Int in
            attempts += 1
            if attempts == 1 { throw StoreError.sqlite(SQLiteError(code: 5, extendedCode: 261, message: "database is locked")) }
            return 42
        }
        #expect(value == 42)
        #expect(attempts == 2)
    }
}
