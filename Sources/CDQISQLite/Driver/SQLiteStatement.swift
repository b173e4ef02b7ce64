import CDQISQL
import CSQLite
import Foundation

/// SQLite's `SQLITE_TRANSIENT`: makes SQLite copy a bound buffer before the call returns.
/// (The C macro is a cast that Swift does not import.)
/// Computed, not stored: a global constant would cost a lazy-initialization check on every bind.
package var sqliteTransient: sqlite3_destructor_type {
    unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
}

/// A prepared statement: bind values by 1-based index, step through rows, read columns by 0-based index.
///
/// Statements come from ``SQLiteConnection/prepare(_:)``, which caches them: preparing the same SQL
/// again returns the same statement, reset and with its bindings cleared. A statement belongs to its
/// connection and, like it, to one thread or task at a time.
public final class SQLiteStatement {
    @usableFromInline package let handle: OpaquePointer
    /// The statement's SQL.
    public let sql: String

    /// A statement keeps no reference to its connection: the connection caches its statements, and a
    /// statement outliving its connection stays safe, since `sqlite3_close_v2` waits for it to be finalized.
    package init(handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// The number of parameters the statement takes.
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// The number of columns each row has.
    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The name of a column (0-based).
    public func columnName(_ index: Int) -> String {
        sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
    }

    // MARK: Binding (1-based)

    /// Binds SQL NULL.
    public func bindNull(_ index: Int) throws(SQLiteError) {
        try check(sqlite3_bind_null(handle, Int32(index)))
    }

    /// Binds an integer.
    // Inlined across modules, as binding a double: a save binds a row's version and key this way for
    // every row it updates, and the call cost more than the binding.
    @inlinable public func bind(_ value: Int64, at index: Int) throws(SQLiteError) {
        let code = sqlite3_bind_int64(handle, Int32(index), value)
        if code != SQLITE_OK { throw failure(code) }
    }

    /// Binds a floating-point number.
    @inlinable public func bind(_ value: Double, at index: Int) throws(SQLiteError) {
        let code = sqlite3_bind_double(handle, Int32(index), value)
        if code != SQLITE_OK { throw failure(code) }
    }

    /// Binds text (copied; embedded NUL characters are kept).
    public func bind(_ value: String, at index: Int) throws(SQLiteError) {
        try checkSize(value.utf8.count)
        var text = value
        let code = text.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                // An empty string has no base address; it must still bind as "", not NULL.
                guard let base = chars.baseAddress else { return sqlite3_bind_text(handle, Int32(index), "", 0, nil) }
                return sqlite3_bind_text(handle, Int32(index), base, Int32(chars.count), sqliteTransient)
            }
        }
        try check(code)
    }

    /// Binds a blob (copied). Empty data is bound as a zero-length blob, not NULL.
    public func bind(_ value: Data, at index: Int) throws(SQLiteError) {
        try checkSize(value.count)
        let code = value.withUnsafeBytes { buffer in
            buffer.baseAddress == nil
                ? sqlite3_bind_zeroblob(handle, Int32(index), 0)
                : sqlite3_bind_blob(handle, Int32(index), buffer.baseAddress, Int32(buffer.count), sqliteTransient)
        }
        try check(code)
    }

    /// Whether the statement has stepped to a row and not been reset or run to its end.
    @inlinable package var isBusy: Bool { sqlite3_stmt_busy(handle) != 0 }

    /// Resets the statement to run again, keeping its bindings.
    @inlinable package func rewind() {
        sqlite3_reset(handle)
    }

    /// Clears every binding (to NULL) and resets the statement to run again.
    @inlinable public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    // MARK: Stepping

    /// Runs the statement to its next row: `true` when a row is ready to read, `false` when done.
    @discardableResult
    public func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = SQLiteError(connection: sqlite3_db_handle(handle), code: code, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs a statement that returns no rows (or whose rows are not needed) to completion, then resets
    /// it and clears its bindings.
    public func run() throws(SQLiteError) {
        defer { reset() }
        while try step() {}
    }

    // MARK: Reading columns (0-based)

    /// Whether the column holds NULL.
    @inlinable public func isNull(_ index: Int) -> Bool {
        sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL
    }

    /// The table a result column reads from, when it reads one directly.
    public func tableName(ofColumn index: Int) -> String? {
        sqlite3_column_table_name(handle, Int32(index)).map { String(cString: $0) }
    }

    /// The column's SQLite storage class (`SQLITE_INTEGER`, `SQLITE_FLOAT`, `SQLITE_TEXT`, `SQLITE_BLOB`, `SQLITE_NULL`).
    @inlinable public func storageClass(_ index: Int) -> Int32 {
        sqlite3_column_type(handle, Int32(index))
    }

    /// The column as an integer (0 for NULL).
    @inlinable public func int64(_ index: Int) -> Int64 {
        sqlite3_column_int64(handle, Int32(index))
    }

    /// The column as a floating-point number (0 for NULL).
    @inlinable public func double(_ index: Int) -> Double {
        sqlite3_column_double(handle, Int32(index))
    }

    /// The column as text (empty for NULL).
    public func string(_ index: Int) -> String {
        value(index)?.string ?? ""
    }

    /// The column as text, or `nil` for NULL.
    public func optionalString(_ index: Int) -> String? {
        value(index)?.optionalString
    }

    /// The column as bytes (empty for NULL).
    public func data(_ index: Int) -> Data {
        value(index)?.data ?? Data()
    }

    /// SQLite's length arguments are 32-bit: a larger value is refused, not truncated.
    private func checkSize(_ count: Int) throws(SQLiteError) {
        if count > Int(Int32.max) {
            throw SQLiteError(code: SQLITE_TOOBIG, message: "a value of \(count) bytes is too large for SQLite", sql: sql)
        }
    }

    private func check(_ code: Int32) throws(SQLiteError) {
        if code != SQLITE_OK { throw failure(code) }
    }

    /// The error for a failed call's result code `code`, with the connection's message.
    @usableFromInline func failure(_ code: Int32) -> SQLiteError {
        SQLiteError(connection: sqlite3_db_handle(handle), code: code, sql: sql)
    }
}
