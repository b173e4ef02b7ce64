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
        }
    }
}
