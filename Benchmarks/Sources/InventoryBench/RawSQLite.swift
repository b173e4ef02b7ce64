import CSQLiteRaw
import Foundation

/// The hand-written baseline's SQLite access: the C API with as little in between as a careful
/// programmer would keep (a connection, `exec`, prepared statements kept for reuse).
public final class RawSQLite {
    public let db: OpaquePointer

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Opens `path` read-write with the store's settings: WAL, `synchronous=FULL`, foreign keys.
    public init(path: String) throws {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            sqlite3_close_v2(handle)
            throw Failure(description: "cannot open \(path): \(String(cString: sqlite3_errstr(code)))")
        }
        db = handle
        sqlite3_busy_timeout(db, 5_000)
        try exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON")
    }

    deinit { sqlite3_close_v2(db) }

    public func exec(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(db, sql, nil, nil, &message) != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(message)
            throw Failure(description: "\(text) in \(sql)")
        }
    }

    /// A prepared statement; the caller finalizes it (``Statement`` does on deinit).
    public func prepare(_ sql: String) throws -> Statement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
            let statement
        else {
            throw Failure(description: "\(String(cString: sqlite3_errmsg(db))) in \(sql)")
        }
        return Statement(handle: statement)
    }

    public func check(_ code: Int32) throws {
        if code != SQLITE_OK && code != SQLITE_DONE && code != SQLITE_ROW {
            throw Failure(description: String(cString: sqlite3_errmsg(db)))
        }
    }

    /// A prepared statement, finalized when released.
    public final class Statement {
        public let handle: OpaquePointer
        init(handle: OpaquePointer) { self.handle = handle }
        deinit { sqlite3_finalize(handle) }
    }
}

/// `SQLITE_TRANSIENT`, which Swift does not import.
let rawTransient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

extension OpaquePointer {
    /// Binds text (copied by SQLite).
    func bindText(_ value: String, at index: Int32) {
        var value = value
        value.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                if let base = chars.baseAddress {
                    _ = sqlite3_bind_text(self, index, base, Int32(chars.count), rawTransient)
                } else {
                    _ = sqlite3_bind_text(self, index, "", 0, nil)
                }
            }
        }
    }

    /// A text column as a String (empty for NULL).
    func text(_ index: Int32) -> String {
        guard let bytes = sqlite3_column_text(self, index) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(self, index))), as: UTF8.self)
    }
}
