/// Why a store could not be opened, created or used.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// SQLite reported an error.
    case sqlite(SQLiteError)
    /// The file is a SQLite database but not a Core Data store.
    case notACoreDataStore(path: String, reason: String)
    /// The store's metadata could not be read.
    case unreadableMetadata(path: String, reason: String)
    /// The store was written for a different model: every difference found, one per line.
    case modelMismatch(path: String, differences: [String])
    /// The file is damaged: SQLite found it corrupt or not a database (`SQLITE_CORRUPT`,
    /// `SQLITE_NOTADB`), or Core Data's bookkeeping holds values no store writes (a `Z_MAX` that is not
    /// an integer, or has no keys left). The reason names the table and key when one is known.
    case damagedStore(path: String, reason: String)
    /// Other connections (another process creating the store, or writing to it) kept it locked for
    /// `seconds` while it was being opened, longer than opening waits; nothing was changed.
    case locked(path: String, seconds: Int)
    /// The database server under the store (PostgreSQL) reported an error.
    case server(path: String, message: String)
    /// The store does not do what was asked (a feature of the SQLite store asked of another store).
    case unsupported(path: String, operation: String)

    /// A sentence describing the problem.
    public var description: String {
        switch self {
        case .sqlite(let error):
            return error.description
        case .notACoreDataStore(let path, let reason):
            return "\(path): not a Core Data store: \(reason)"
        case .unreadableMetadata(let path, let reason):
            return "\(path): cannot read the store metadata: \(reason)"
        case .modelMismatch(let path, let differences):
            return "\(path): the store was written for a different model:\n"
                + differences.map { "  - \($0)" }.joined(separator: "\n")
        case .damagedStore(let path, let reason):
            return "\(path): the store is damaged: \(reason)"
        case .locked(let path, let seconds):
            return "\(path): other connections kept the store locked for \(seconds) s while it was being opened; nothing was changed"
        case .server(let path, let message):
            return "\(path): \(message)"
        case .unsupported(let path, let operation):
            return "\(path): \(operation) is not supported by this store"
        }
    }
}

extension StoreError {
    /// The store error for a SQLite error on the store at `path`: ``damagedStore(path:reason:)`` for
    /// SQLite's corruption codes (`SQLITE_CORRUPT` 11, `SQLITE_NOTADB` 26), otherwise ``sqlite(_:)``.
    public static func classifying(_ error: SQLiteError, path: String) -> StoreError {
        error.isCorruption ? .damagedStore(path: path, reason: error.description) : .sqlite(error)
    }

    /// The store error for anything a store's write threw (the context's errors are caught before):
    /// a ``StoreError`` as it is, a SQLite error classified, anything else as a generic SQLite error
    /// carrying its description.
    static func fromStore(_ error: any Error, path: String) -> StoreError {
        switch error {
        case let error as StoreError: error
        case let error as SQLiteError: classifying(error, path: path)
        default: .sqlite(SQLiteError(code: 1, message: "\(error)"))
        }
    }
}
