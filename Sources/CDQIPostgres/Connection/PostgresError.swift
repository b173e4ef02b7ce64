/// A failure talking to PostgreSQL: what kind it is, the server's SQLSTATE code when it sent one,
/// and the server's own words (message, detail, constraint, table, column).
///
/// ``kind`` maps the SQLSTATE codes the store reacts to (a unique violation becomes a validation
/// error, a serialization failure or deadlock a retry); every other server error is
/// ``Kind/server``, with its code in ``sqlState``.
public struct PostgresError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, by SQLSTATE class where the server sent one.
    public enum Kind: Sendable, Hashable {
        /// The connection URL could not be parsed.
        case invalidURL
        /// The server could not be reached or refused the connection (host, port, user, password,
        /// database, TLS): libpq's message says which.
        case connectionFailed
        /// The connection broke while in use (class 08, or libpq found it closed).
        case connectionLost
        /// `23505`: a row would duplicate a unique index's key.
        case uniqueViolation
        /// `23503`: a foreign key has no row to point at.
        case foreignKeyViolation
        /// `23502`: a NOT NULL column would be null.
        case notNullViolation
        /// `23514`: a CHECK constraint failed.
        case checkViolation
        /// `40001`: a serializable or repeatable-read transaction conflicted with another; retry it.
        case serializationFailure
        /// `40P01`: the transaction was chosen to end a deadlock; retry it.
        case deadlockDetected
        /// `55P03`: a lock could not be taken (`NOWAIT`, `lock_timeout`).
        case lockNotAvailable
        /// `42P01`: the table does not exist.
        case undefinedTable
        /// `42703`: the column does not exist.
        case undefinedColumn
        /// `3F000`: the schema does not exist.
        case undefinedSchema
        /// `42601`: the SQL does not parse.
        case syntaxError
        /// `57014`: the statement was cancelled (`statement_timeout`, a cancel request).
        case queryCanceled
        /// A checked-out connection could not be had from a pool in time.
        case poolTimeout
        /// A value in a result has a type CDQI does not read, or bytes that do not decode.
        case unsupportedValue
        /// Any other server error: see ``sqlState``.
        case server
    }

    /// What went wrong.
    public var kind: Kind
    /// The five-character SQLSTATE code, when the server sent one.
    public var sqlState: String?
    /// The primary message (the server's, libpq's, or CDQI's).
    public var message: String
    /// The server's detail line (for a unique violation, the duplicated key and value).
    public var detail: String?
    /// The constraint or index that was violated, when the server names one.
    public var constraint: String?
    /// The table concerned, when the server names one.
    public var table: String?
    /// The column concerned, when the server names one.
    public var column: String?
    /// The statement that failed, when there was one.
    public var statement: String?

    /// An error from its parts.
    public init(
        kind: Kind, sqlState: String? = nil, message: String, detail: String? = nil, constraint: String? = nil,
        table: String? = nil, column: String? = nil, statement: String? = nil
    ) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.constraint = constraint
        self.table = table
        self.column = column
        self.statement = statement
    }

    /// The kind an SQLSTATE code maps to.
    public static func kind(forSQLState code: String) -> Kind {
        switch code {
        case "23505": .uniqueViolation
        case "23503": .foreignKeyViolation
        case "23502": .notNullViolation
        case "23514": .checkViolation
        case "40001": .serializationFailure
        case "40P01": .deadlockDetected
        case "55P03": .lockNotAvailable
        case "42P01": .undefinedTable
        case "42703": .undefinedColumn
        case "3F000": .undefinedSchema
        case "42601": .syntaxError
        case "57014": .queryCanceled
        default: code.hasPrefix("08") ? .connectionLost : .server
        }
    }

    /// Whether running the transaction again may succeed: a serialization failure or a deadlock.
    public var isRetryable: Bool {
        kind == .serializationFailure || kind == .deadlockDetected
    }

    /// A sentence naming the problem: the message, the SQLSTATE, the detail and the statement.
    public var description: String {
        var text = "PostgreSQL"
        if let sqlState { text += " error \(sqlState)" }
        text += ": " + message
        if let detail { text += " (\(detail))" }
        if let statement { text += " in: \(statement)" }
        return text
    }
}
