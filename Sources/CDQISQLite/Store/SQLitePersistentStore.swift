import CDQIModel
import CDQIObjects
import CDQIPredicate
import Foundation
import Logging
import Synchronization

/// The SQLite store as a coordinator uses it: one writer connection and a pool of read-only
/// connections (WAL mode) over one file, or one connection for an in-memory store.
///
/// Saves take the writer, one at a time; fetches, counts, dictionary fetches, faults and prefetches
/// take the writer too when it is idle and no save waits for it, and a reader otherwise, so those of
/// different contexts run at the same time, and none waits for a save. Each statement reads the last
/// state committed when it started: a fetch never sees part of a save. An in-memory store has one
/// connection, shared by reads and saves one at a time (a second connection would open another, empty
/// database).
///
/// Reading on the idle writer keeps a context that reads and saves alone (most of them, most of the
/// time) on one connection, as before there were readers: the rows its fetch read stay in the writer's
/// page cache for its save, and a reader's cache, which every save of another connection empties, is
/// not read again. A save waits at most for one read to end, and reads leave the writer alone while a
/// save waits for it (``waitingForWriter``), so that a stream of reads never holds a save back.
///
/// It is `Sendable`: the writer is only touched while holding `lock`, and each reader is used by one
/// caller at a time (see the pool).
package final class SQLitePersistentStore: PersistentStore, @unchecked Sendable {
    package let metadata: StoreMetadata
    package let schema: StoreSchema
    package var dialect: SQLDialect { .sqlite }
    package let url: URL?
    package var location: String { url?.path ?? ":memory:" }

    private let lock = NSLock()
    /// Guarded by `lock`: the writer.
    private let writer: SQLiteStore
    /// How many callers (saves, mostly) wait for `lock` in ``withWriter(_:)``: reads take the idle
    /// writer only when none does.
    private let waitingForWriter = Atomic<Int>(0)
    /// The read connections of a store file; `nil` for an in-memory store, or when the reader count
    /// is 0 (reads then share the writer).
    package let readers: StoreReaderPool?

    /// Opens (or creates) the store at `url`, or an in-memory store (see
    /// ``PersistentStoreCoordinator/init(model:url:readOnly:readerCount:keepsJournalMode:)``).
    init(model: ManagedObjectModel, url: URL?, readOnly: Bool, readerCount: Int, keepsJournalMode: Bool) throws(StoreError) {
        let writer = try SQLiteStore(model: model, url: url, readOnly: readOnly, keepsJournalMode: keepsJournalMode)
        self.writer = writer
        self.url = url
        metadata = writer.metadata
        schema = writer.schema
        // Readers need WAL (without it a reader would wait for the writer, and the writer for readers);
        // a file whose journal is not WAL (kept, or not switchable) keeps one connection.
        readers =
            url != nil && readerCount > 0 && writer.connection.journalMode == "wal"
            ? StoreReaderPool(writer: writer, capacity: readerCount) : nil
    }

    deinit {
        // The readers first: the writer must be the file's last connection (see the pool).
        readers?.closeFreeReaders()
    }

    // MARK: Connections

    /// Runs `body` with the writer if no one else is using it now; `nil` (without running it) if
    /// someone is.
    package func withWriterIfFree<T>(_ body: (SQLiteStore) throws -> T) throws -> T? {
        guard lock.try() else { return nil }
        defer { lock.unlock() }
        do {
            return try body(writer)
        } catch let error as SQLiteError where error.isCorruption {
            throw StoreError.damagedStore(path: location, reason: error.description)
        }
    }

    /// Runs `body` with the writer, serialized with every other use of it. SQLite's corruption errors
    /// (`SQLITE_CORRUPT`, `SQLITE_NOTADB`) leave as ``StoreError/damagedStore(path:reason:)``.
    package func withWriter<T>(_ body: (SQLiteStore) throws -> T) rethrows -> T {
        if !lock.try() {
            waitingForWriter.add(1, ordering: .relaxed)
            lock.lock()
            waitingForWriter.subtract(1, ordering: .relaxed)
        }
        defer { lock.unlock() }
        do {
            return try body(writer)
        } catch let error as SQLiteError where error.isCorruption {
            throw StoreError.damagedStore(path: location, reason: error.description)
        }
    }

    /// Runs `body` with the writer if it is idle and no save waits for it, or else with a read
    /// connection of the pool, at the same time as other reads and saves; for an in-memory store (or a
    /// reader count of 0), with the writer as ``withWriter(_:)`` does. `body` must only read.
    package func withReader<T>(_ body: (SQLiteStore) throws -> T) throws -> T {
        guard let readers else { return try withWriter(body) }
        do {
            guard takeIdleWriter() else { return try readers.withReader(body) }
            defer { lock.unlock() }
            return try body(writer)
        } catch let error as SQLiteError where error.isCorruption {
            throw StoreError.damagedStore(path: location, reason: error.description)
        }
    }

    /// ``withReader(_:)`` for a body that reads with one request: the request is handed to `body`
    /// rather than captured by it (a closure capturing it copied it, retaining each of its parts, on
    /// every count).
    func withReader<T>(_ request: FetchRequest, _ body: (SQLiteStore, FetchRequest) throws -> T) throws -> T {
        do {
            guard let readers else {
                lock.lock()
                defer { lock.unlock() }
                return try body(writer, request)
            }
            guard takeIdleWriter() else { return try readers.withReader(request, body) }
            defer { lock.unlock() }
            return try body(writer, request)
        } catch let error as SQLiteError where error.isCorruption {
            throw StoreError.damagedStore(path: location, reason: error.description)
        }
    }

    /// How many callers wait for the writer now (reads leave it to them).
    package var writerWaiters: Int { waitingForWriter.load(ordering: .relaxed) }

    /// Takes `lock` for a read if the writer is idle and no save waits for it; `false` (not taking it)
    /// otherwise.
    private func takeIdleWriter() -> Bool {
        waitingForWriter.load(ordering: .relaxed) == 0 && lock.try()
    }

    /// A read connection for one owner's sole use until the lease ends (see ``StoreReaderPool/lease()``),
    /// or `nil` for an in-memory store or a reader count of 0 (no connection may read beside the writer).
    package func leaseReader() throws(StoreError) -> StoreReaderLease? {
        try readers?.lease()
    }

    // MARK: Reading

    package func fetchObjectReferences(_ request: FetchRequest) throws -> [ObjectReference] {
        try withReader(request) { try $0.fetchObjectReferences($1) }
    }

    package func count(_ request: FetchRequest) throws -> Int {
        try withReader(request) { try $0.count($1) }
    }

    package func fetchDictionaries(_ request: FetchRequest) throws -> [[String: StoredValue]] {
        try withReader(request) { try $0.fetchDictionaries($1) }
    }

    package func explain(_ request: FetchRequest) throws -> FetchExplanation {
        try withWriter { try $0.explain(request) }
    }

    package func readObjects(
        _ request: FetchRequest, layout: EntityLayout, reader: inout RowObjectReader, into objects: inout [ManagedObject]
    ) throws {
        try withReader(request) { store, request in
            try store.forEachRow(request, columns: layout.tableColumnsSQL) { statement in
                objects.append(try reader.object(at: statement).object)
            }
        }
    }

    package func readObjects(
        _ query: KeyedRowQuery, keys: [Int64], reader: inout RowObjectReader, into objects: inout [ManagedObject],
        _ each: (ManagedObject, Int64?) -> Void
    ) throws {
        try withReader { store in
            let statement = try store.connection.prepare(query.sql)
            defer { statement.reset() }
            for (offset, key) in keys.enumerated() { try statement.bind(key, at: offset + 1) }
            while try statement.step() {
                let object = try reader.object(at: statement).object
                each(object, query.ownerPosition.flatMap { statement.integer($0) })
                objects.append(object)
            }
        }
    }

    package func readReferences(_ query: KeyedRowQuery, keys: [Int64]) throws -> [(entityNumber: Int, key: Int64)] {
        try withReader { store in
            let statement = try store.connection.prepare(query.sql)
            defer { statement.reset() }
            for (offset, key) in keys.enumerated() { try statement.bind(key, at: offset + 1) }
            var references: [(entityNumber: Int, key: Int64)] = []
            while try statement.step() {
                // A row whose Z_ENT names no entity is reported, as whole-row reads report it.
                guard statement.holdsInteger(0), schema.entity(number: Int(statement.int64(0))) != nil else {
                    throw StoreError.unknownEntityRow(statement, path: location)
                }
                references.append((Int(statement.int64(0)), statement.int64(1)))
            }
            return references
        }
    }

    package func readRow(of layout: EntityLayout, key: Int64) throws -> StoredRow? {
        try withReader { store in try StoredRow.read(layout, key: key, connection: store.connection) }
    }

    // MARK: Writing

    package func write<T>(_ body: (any SaveTransaction) throws -> T) throws -> T {
        try withWriter { store in
            try store.connection.writeTransaction {
                try body(SQLiteSaveTransaction(connection: store.connection, schema: schema))
            }
        }
    }

    package func runBatch(_ statement: SQLFragment, request: FetchRequest?, deleteRules: BatchDeleteRules?) throws -> BatchWriter.Written {
        try withWriter { store in
            try store.connection.writeTransaction {
                let writer = SQLiteBatchWriter(connection: store.connection)
                guard let deleteRules, let request else { return try writer.update(statement) }
                return try writer.delete(statement, request: request, triggers: DeleteRuleTriggers(deleteRules))
            }
        }
    }
}

extension SQLitePersistentStore: ExternalWriteDetecting {
    package func withWriteProbe<T>(waiting: Bool, _ body: (any ExternalWriteProbe) throws -> T) throws -> T? {
        waiting ? try withWriter { try body($0.connection) } : try withWriterIfFree { try body($0.connection) }
    }

    package func committedVersions(table: String, keys: [Int64]) throws -> [Int64: Int64] {
        try withReader { store in
            var versions: [Int64: Int64] = [:]
            for chunk in keys.chunked(500) {
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                let statement = try store.connection.prepareUncached(
                    "SELECT Z_PK, Z_OPT FROM \"\(table)\" WHERE Z_PK IN (\(marks))")
                for (index, key) in chunk.enumerated() { try statement.bind(key, at: index + 1) }
                while try statement.step() { versions[statement.int64(0)] = statement.int64(1) }
            }
            return versions
        }
    }
}

extension SQLitePersistentStore: SingleTransactionWriting {
    /// `BEGIN IMMEDIATE` … `COMMIT` on the writer: every save `body` makes is a savepoint in it.
    package func inOneTransaction<T>(_ body: () throws -> T) throws -> T {
        try withWriter { store in try store.connection.execute("BEGIN IMMEDIATE") }
        do {
            let result = try body()
            try withWriter { store in try store.connection.execute("COMMIT") }
            return result
        } catch {
            try? withWriter { store in
                if !store.connection.isAutocommit { try store.connection.execute("ROLLBACK") }
            }
            throw error
        }
    }
}

extension SQLitePersistentStore: SQLLogging {
    package func logSQL(to logger: Logger?) {
        withWriter { $0.connection.trace(to: logger) }
        readers?.logSQL(to: logger)
    }
}

extension SQLitePersistentStore: RowCursorOpening {
    package var readerCapacity: Int { readers?.capacity ?? 0 }
    package var openReaderCount: Int { readers?.openCount ?? 0 }

    package func openRowCursor(_ request: FetchRequest, layout: EntityLayout) throws -> (any StoreRowCursor)? {
        guard let lease = try leaseReader() else { return nil }
        return try SQLiteRowCursor(lease: lease, request: request, layout: layout)
    }
}
