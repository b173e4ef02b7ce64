/// An error reported by SQLite, with everything needed to understand it.
///
/// A plain value (code, message, statement), so that the store errors of the object graph
/// (``StoreError``'s `sqlite` case) can carry it without the graph depending on the SQLite store.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The primary result code (`SQLITE_CONSTRAINT` is 19, `SQLITE_BUSY` 5, …).
    public var code: Int32
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE` is 2067, …).
    public var extendedCode: Int32
    /// SQLite's message.
    public var message: String
    /// The statement that failed, when there was one.
    public var sql: String?

    /// Creates an error.
    public init(code: Int32, extendedCode: Int32? = nil, message: String, sql: String? = nil) {
        self.code = code
        self.extendedCode = extendedCode ?? code
        self.message = message
        self.sql = sql
    }

    /// Whether SQLite found the database file damaged or not a database (`SQLITE_CORRUPT` 11,
    /// `SQLITE_NOTADB` 26, with any extended code).
    public var isCorruption: Bool { code == 11 || code == 26 }

    /// `SQLite error 19 (extended 2067): UNIQUE constraint failed: …, in: INSERT …`
    public var description: String {
        var text = "SQLite error \(code)"
        if extendedCode != code { text += " (extended \(extendedCode))" }
        text += ": \(message)"
        if let sql { text += ", in: \(sql)" }
        return text
    }
}
