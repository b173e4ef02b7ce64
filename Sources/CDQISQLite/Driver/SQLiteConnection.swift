import CDQISQL
import CSQLite

/// One connection to a SQLite database, configured the way the store needs it.
///
/// Opening sets `synchronous=FULL`, a busy timeout, foreign keys on, `trusted_schema=OFF` and SQLite's
/// defensive mode, so that a store file from elsewhere cannot run application functions from its
/// schema or switch journaling off (the process's first connection also turns SQLite's memory
/// statistics off: ``SQLiteProcessSettings``); ``enableWriteAheadLog()`` turns on WAL. Prepared
/// statements are cached per SQL text: running the same statement shape again costs no parsing or
/// planning.
///
/// A connection is used by one thread or task at a time; it is not `Sendable`.
public final class SQLiteConnection {
    /// How to open the database.
    public enum Mode: Sendable, Hashable {
        /// Read and write, creating the file if needed.
        case readWriteCreate
        /// Read and write an existing file.
        case readWrite
        /// Read only.
        case readOnly
    }

    package let handle: OpaquePointer
    /// The database's path (`":memory:"` for an in-memory database).
    public let path: String
    private var statements: [String: SQLiteStatement] = [:]
    /// The statement logger registered with SQLite's trace hook, kept alive while registered.
    package var tracer: SQLiteTracer?
    /// What must live as long as the connection: the rolled-back copy it reads, when it reads one
    /// (see ``openForReading(path:)``).
    package var keptAlive: AnyObject?

    /// Opens (or creates) a database.
    ///
    /// - Parameters:
    ///   - path: a file path, or `":memory:"`.
    ///   - mode: how to open it.
    ///   - busyTimeout: how long, in milliseconds, to wait for another connection's lock.
    public init(path: String, mode: Mode = .readWriteCreate, busyTimeout: Int32 = 5_000) throws(SQLiteError) {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch mode {
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        }
        // Before the process's first connection, or not at all: see SQLiteProcessSettings.
        SQLiteProcessSettings.apply()
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let error = SQLiteError(connection: connection, code: code, sql: nil)
            sqlite3_close_v2(connection)
            throw error
        }
        self.handle = connection
        self.path = path
        sqlite3_busy_timeout(connection, busyTimeout)
        sqlite3_extended_result_codes(connection, 1)
        try execute("PRAGMA trusted_schema = OFF")
        try execute("PRAGMA foreign_keys = ON")
        if mode != .readOnly {
            try enableDefensiveMode()
            try execute("PRAGMA synchronous = FULL")
        }
    }

    /// Switches a file database to write-ahead logging (a no-op for in-memory databases).
    ///
    /// This is kept out of `init` because it rewrites the file header: a store is checked against its
    /// model first, so that a refused open leaves the file exactly as it was.
    public func enableWriteAheadLog() throws(SQLiteError) {
        guard path != ":memory:", !path.isEmpty else { return }
        // A cached statement left mid-iteration holds a read transaction, which blocks the switch.
        for statement in statements.values { statement.reset() }
        try execute("PRAGMA journal_mode = WAL")
    }

    /// The journal mode in effect (`"wal"`, `"delete"`, `"memory"`, …), or `nil` when it cannot be read.
    package var journalMode: String? {
        guard let statement = try? prepareUncached("PRAGMA journal_mode"), (try? statement.step()) == true else { return nil }
        return statement.string(0).lowercased()
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that take no parameters.
    public func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        if code != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(message)
            throw SQLiteError(code: code & 0xFF, extendedCode: sqlite3_extended_errcode(handle), message: text, sql: sql)
        }
    }

    /// A prepared statement for `sql`, from the cache when this SQL ran before (reset, bindings cleared).
    ///
    /// When the cached statement is still stepping (a caller is iterating its rows and, inside that loop,
    /// runs the same SQL again), resetting it would end the outer iteration; a fresh, uncached
    /// statement is returned instead and the cached one is left untouched.
    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let cached = statements[sql] {
            if sqlite3_stmt_busy(cached.handle) != 0 {
                return try prepareUncached(sql)
            }
            cached.reset()
            return cached
        }
        let statement = try prepareUncached(sql)
        statements[sql] = statement
        return statement
    }

    /// A prepared statement that is not cached, for SQL that will not run again.
    public func prepareUncached(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw SQLiteError(connection: handle, code: code, sql: sql)
        }
        return SQLiteStatement(handle: statement, sql: sql)
    }

    /// The number of statements in the cache.
    public var cachedStatementCount: Int { statements.count }

    /// The rowid of the last inserted row.
    public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The number of rows the last INSERT, UPDATE or DELETE changed.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Whether no transaction is open.
    public var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction: commits when it returns, rolls back when it
    /// throws. IMMEDIATE takes the write lock first, so the busy timeout applies (a DEFERRED
    /// transaction that upgrades from read to write fails at once with SQLITE_BUSY instead). Inside a
    /// transaction that is open already, a savepoint instead.
    public func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        // Inside a transaction the caller opened, a savepoint: `body` writes all or nothing, and the
        // caller's transaction decides whether any of it is committed.
        if !isAutocommit { return try savepoint(body) }
        return try transaction(exclusive: false, body)
    }

    /// Runs `body` in one transaction, `BEGIN EXCLUSIVE` when `exclusive` (no other connection reads
    /// meanwhile), else `BEGIN IMMEDIATE`: commits when it returns, rolls back when it throws.
    package func transaction<T>(exclusive: Bool, _ body: () throws -> T) throws -> T {
        try execute(exclusive ? "BEGIN EXCLUSIVE" : "BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // SQLite may already have rolled back (disk full, I/O error); then ROLLBACK fails harmlessly.
            if !isAutocommit { try? execute("ROLLBACK") }
            throw error
        }
    }

    private func savepoint<T>(_ body: () throws -> T) throws -> T {
        try execute("SAVEPOINT cdqi_write")
        do {
            let result = try body()
            try execute("RELEASE cdqi_write")
            return result
        } catch {
            // As with ROLLBACK above: SQLite may have rolled the whole transaction back already.
            if !isAutocommit {
                try? execute("ROLLBACK TO cdqi_write")
                try? execute("RELEASE cdqi_write")
            }
            throw error
        }
    }

    private func enableDefensiveMode() throws(SQLiteError) {
        let code = cdqi_sqlite3_enable_defensive(handle)
        if code != SQLITE_OK { throw SQLiteError(connection: handle, code: code, sql: nil) }
    }
}
