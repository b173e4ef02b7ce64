/// Why a PostgreSQL store could not be created, opened or used.
public enum PostgresStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// PostgreSQL reported an error.
    case postgres(PostgresError)
    /// The schema holds tables but is not a Core Data store (no `Z_METADATA` and `Z_PRIMARYKEY`).
    case notACoreDataStore(schema: String, reason: String)
    /// The store's metadata could not be read.
    case unreadableMetadata(schema: String, reason: String)
    /// The store was written for a different model: every difference found.
    case modelMismatch(schema: String, differences: [String])
    /// A table, column or index name of the model is longer than PostgreSQL's 63-byte identifiers
    /// (PostgreSQL would silently cut it, and two names could become one).
    case identifierTooLong(String)
    /// Core Data's bookkeeping holds what no store writes (a missing `Z_PRIMARYKEY` row, keys exhausted).
    case damagedStore(schema: String, reason: String)

    /// A sentence describing the problem.
    public var description: String {
        switch self {
        case .postgres(let error):
            return error.description
        case .notACoreDataStore(let schema, let reason):
            return "schema \(schema): not a Core Data store: \(reason)"
        case .unreadableMetadata(let schema, let reason):
            return "schema \(schema): cannot read the store metadata: \(reason)"
        case .modelMismatch(let schema, let differences):
            return "schema \(schema): the store was written for a different model:\n"
                + differences.map { "  - \($0)" }.joined(separator: "\n")
        case .identifierTooLong(let name):
            return "the name \(name) is \(name.utf8.count) bytes, longer than PostgreSQL's limit of 63"
        case .damagedStore(let schema, let reason):
            return "schema \(schema): the store is damaged: \(reason)"
        }
    }
}
