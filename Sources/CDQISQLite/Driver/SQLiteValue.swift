import CSQLite
import Foundation

/// One column of a statement's current row (`sqlite3_column_value`), read through the value itself:
/// every column read of the package decodes text and bytes here.
///
/// Every `sqlite3_column_*` call finds the column again and re-checks the connection's error state;
/// reading a column's storage class and then its value through one `sqlite3_value` does that once. The
/// value is valid until the statement steps or resets. SQLite calls such values "unprotected": reading
/// them is not thread-safe, and need not be: a statement is used by one thread or task at a time.
@usableFromInline package struct SQLiteValue {
    @usableFromInline package let handle: OpaquePointer

    @inlinable package init(handle: OpaquePointer) { self.handle = handle }

    /// The value's SQLite storage class (`SQLITE_INTEGER`, `SQLITE_FLOAT`, `SQLITE_TEXT`, `SQLITE_BLOB`, `SQLITE_NULL`).
    @inlinable package var storageClass: Int32 { sqlite3_value_type(handle) }

    /// The value as an integer (0 for NULL).
    @inlinable package var int64: Int64 { sqlite3_value_int64(handle) }

    /// The value as a floating-point number (0 for NULL).
    @inlinable package var double: Double { sqlite3_value_double(handle) }

    /// The value as text (empty for NULL).
    @inlinable package var string: String { optionalString ?? "" }

    /// The value as text, or `nil` for NULL (empty for text SQLite could not allocate).
    @inlinable package var optionalString: String? {
        guard let text = sqlite3_value_text(handle) else { return storageClass == SQLITE_NULL ? nil : "" }
        let count = Int(sqlite3_value_bytes(handle))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The value as bytes (empty for NULL).
    package var data: Data {
        let count = Int(sqlite3_value_bytes(handle))
        guard count > 0, let blob = sqlite3_value_blob(handle) else { return Data() }
        return Data(bytes: blob, count: count)
    }
}

extension SQLiteStatement {
    /// Column `index` (0-based) of the current row, to read more than once (its storage class, then its value).
    @inlinable package func value(_ index: Int) -> SQLiteValue? {
        sqlite3_column_value(handle, Int32(index)).map(SQLiteValue.init(handle:))
    }
}
