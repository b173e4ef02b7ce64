import CDQIPredicate
import CLibPQ
import Foundation

/// One connection to a PostgreSQL server through libpq: statements with parameters bound as `$1`,
/// `$2`, … (always bound, never spliced into the SQL), prepared once per connection and cached by
/// their SQL and parameter types, results read as ``StoredValue``s, and transactions.
///
/// Calls are synchronous, like a context's work. A connection is used by one thread or task at a
/// time; it is not `Sendable` (``PostgresConnectionPool`` shares connections between threads).
/// On opening, the connection's `search_path` is set to the URL's schema, so that unqualified table
/// names (`"ZEMPLOYEE"`) are the store's.
public final class PostgresConnection {
    /// The URL the connection was opened with.
    public let url: PostgresURL
    private var handle: OpaquePointer?
    /// The statements this connection has prepared, by SQL, then by parameter types.
    private var statements = PostgresStatementCache()
    /// The parameters of the statement being run: buffers kept from one statement to the next.
    private var parameters = PostgresParameters()
    private var transactionDepth = 0

    /// Connects to the server, database and schema of `url`. Throws
    /// ``PostgresError/Kind/connectionFailed`` with libpq's reason (refused, unknown host, password
    /// authentication failed, no such database, …).
    public init(url: PostgresURL) throws(PostgresError) {
        self.url = url
        var parameters: [(String, String)] = [
            ("host", url.host), ("port", String(url.port)), ("sslmode", url.sslMode),
            ("connect_timeout", String(url.connectTimeout)), ("application_name", url.applicationName),
            ("client_encoding", "UTF8"),
        ]
        if let user = url.user { parameters.append(("user", user)) }
        if let password = url.password { parameters.append(("password", password)) }
        if let database = url.database { parameters.append(("dbname", database)) }
        let connection = Self.connect(parameters)
        guard let connection, PQstatus(connection) == CONNECTION_OK else {
            let reason = connection.map(Self.errorMessage) ?? "libpq could not allocate a connection"
            if let connection { PQfinish(connection) }
            throw PostgresError(kind: .connectionFailed, message: "cannot connect to \(url): \(reason)")
        }
        handle = connection
        // Notices ("… already exists, skipping") would go to standard error; the store has no use for them.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        try queryUncached("SELECT set_config('search_path', $1, false)", [.string(Self.quoteIdentifier(url.schema))])
    }

    /// Parses `url` (``PostgresURL``) and connects; a bad URL throws ``PostgresError/Kind/invalidURL``
    /// naming the part at fault.
    public convenience init(url: String) throws(PostgresError) {
        let parsed: PostgresURL
        do {
            parsed = try PostgresURL(url)
        } catch {
            throw PostgresError(kind: .invalidURL, message: error.description)
        }
        try self.init(url: parsed)
    }

    deinit {
        if let handle { PQfinish(handle) }
    }

    /// Closes the connection; later calls throw ``PostgresError/Kind/connectionLost``.
    public func close() {
        if let handle { PQfinish(handle) }
        handle = nil
        statements.removeAll()
    }

    /// Whether the connection is open and healthy.
    public var isOpen: Bool {
        handle.map { PQstatus($0) == CONNECTION_OK } ?? false
    }

    /// The server's version number (150018 for 15.18).
    public var serverVersion: Int {
        handle.map { Int(PQserverVersion($0)) } ?? 0
    }

    /// How many statements this connection has prepared and cached.
    public var cachedStatementCount: Int { statements.count }

    /// Whether a transaction is open (``transaction(isolation:_:)`` or an explicit `BEGIN`).
    public var isInTransaction: Bool {
        guard let handle else { return false }
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    // MARK: Statements

    /// Runs SQL with no parameters through the simple protocol: it may hold several statements
    /// separated by `;` (schema scripts). Results are discarded.
    public func execute(_ sql: String) throws(PostgresError) {
        let connection = try open()
        let result = PQexec(connection, sql)
        _ = try check(result, sql: sql)
    }

    /// Runs one statement with `parameters` bound to `$1`, `$2`, …, through a prepared statement this
    /// connection keeps (prepared on first use, by SQL and parameter types), and returns its result.
    @discardableResult
    public func query(_ sql: String, _ parameters: [StoredValue] = []) throws(PostgresError) -> PostgresResult {
        let connection = try open()
        try encode(parameters, sql: sql)
        let name: String
        if let cached = statements.name(sql: sql, types: self.parameters.types) {
            name = cached
        } else {
            name = "cdqi_\(statements.count + 1)"
            let count = Int32(self.parameters.count)
            let prepared = self.parameters.withLibPQArrays { types, _, _, _ in
                PQprepare(connection, name, sql, count, types)
            }
            _ = try check(prepared, sql: sql)
            statements.insert(name: name, sql: sql, types: self.parameters.types)
        }
        let count = Int32(self.parameters.count)
        let result = self.parameters.withLibPQArrays { _, values, lengths, formats in
            PQexecPrepared(connection, name, count, values, lengths, formats, 1)
        }
        return try check(result, sql: sql)
    }

    /// Runs one statement with `parameters` bound to `$1`, `$2`, … without preparing it for reuse
    /// (the unnamed statement): for statements run once.
    @discardableResult
    public func queryUncached(_ sql: String, _ parameters: [StoredValue] = []) throws(PostgresError) -> PostgresResult {
        let connection = try open()
        try encode(parameters, sql: sql)
        let count = Int32(self.parameters.count)
        let result = self.parameters.withLibPQArrays { types, values, lengths, formats in
            PQexecParams(connection, sql, count, types, values, lengths, formats, 1)
        }
        return try check(result, sql: sql)
    }

    // MARK: Transactions

    /// How much a transaction sees of others running at the same time.
    public enum IsolationLevel: String, Sendable, Hashable {
        /// Each statement sees what was committed before it started (PostgreSQL's default).
        case readCommitted = "READ COMMITTED"
        /// The transaction sees one snapshot; a conflicting write fails with a serialization failure.
        case repeatableRead = "REPEATABLE READ"
        /// As if transactions ran one after another; a conflict fails with a serialization failure.
        case serializable = "SERIALIZABLE"
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws. Nested
    /// calls run in a savepoint of the outer transaction (their isolation is the outer one's). If a
    /// statement failed inside `body` and `body` caught the error, the transaction is aborted on the
    /// server: it is rolled back and this throws, rather than report a commit that did not happen.
    public func transaction<T>(isolation: IsolationLevel = .readCommitted, _ body: () throws -> T) throws -> T {
        let depth = transactionDepth
        let savepoint = "cdqi_savepoint_\(depth)"
        try execute(depth == 0 ? "BEGIN ISOLATION LEVEL \(isolation.rawValue)" : "SAVEPOINT \(savepoint)")
        transactionDepth += 1
        defer { transactionDepth = depth }
        let value: T
        do {
            value = try body()
        } catch {
            if isOpen { try? execute(depth == 0 ? "ROLLBACK" : "ROLLBACK TO SAVEPOINT \(savepoint)") }
            throw error
        }
        if let handle, PQtransactionStatus(handle) == PQTRANS_INERROR {
            try? execute(depth == 0 ? "ROLLBACK" : "ROLLBACK TO SAVEPOINT \(savepoint)")
            throw PostgresError(
                kind: .server, sqlState: "25P02",
                message: "the transaction was rolled back: a statement in it failed and the error was caught")
        }
        try execute(depth == 0 ? "COMMIT" : "RELEASE SAVEPOINT \(savepoint)")
        return value
    }

    /// Runs ``transaction(isolation:_:)`` and, when it fails with a serialization failure or a
    /// deadlock (``PostgresError/isRetryable``, or a ``PostgresStoreError/postgres(_:)`` wrapping one),
    /// runs it again, up to `attempts` times in all. An error of any other kind is thrown at once.
    public func retryingTransaction<T>(
        isolation: IsolationLevel = .serializable, attempts: Int = 5, _ body: () throws -> T
    ) throws -> T {
        var attempt = 1
        while true {
            do {
                return try transaction(isolation: isolation, body)
            } catch  where Self.isRetryable(error) && attempt < attempts && transactionDepth == 0 {
                attempt += 1
            }
        }
    }

    /// Whether `error` is a serialization failure or a deadlock, itself or wrapped in a store error.
    static func isRetryable(_ error: any Error) -> Bool {
        switch error {
        case let error as PostgresError: error.isRetryable
        case PostgresStoreError.postgres(let error): error.isRetryable
        default: false
        }
    }

    // MARK: Helpers

    /// `name` as a quoted identifier: `"` around it, inner `"` doubled. For identifiers only (table,
    /// column, schema names); values are always bound.
    public static func quoteIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private func open() throws(PostgresError) -> OpaquePointer {
        guard let handle else { throw PostgresError(kind: .connectionLost, message: "the connection to \(url) is closed") }
        return handle
    }

    /// Encodes `values` into ``parameters``, refusing what PostgreSQL's protocol cannot carry.
    private func encode(_ values: [StoredValue], sql: String) throws(PostgresError) {
        parameters.encode(values)
        if let position = parameters.oversizedParameter {
            throw PostgresError(
                kind: .server, message: "parameter $\(position) is larger than PostgreSQL's limit of 2 GB", statement: sql)
        }
        guard parameters.count <= 65_535 else {
            throw PostgresError(
                kind: .server, message: "\(parameters.count) parameters, more than PostgreSQL's limit of 65535", statement: sql)
        }
    }

    /// The result when the statement succeeded, else its error (the result is freed either way).
    private func check(_ result: OpaquePointer?, sql: String) throws(PostgresError) -> PostgresResult {
        guard let result else {
            throw lostOrFailed(message: handle.map(Self.errorMessage) ?? "no connection", sql: sql)
        }
        let wrapped = PostgresResult(handle: result)
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return wrapped
        default:
            func field(_ code: UInt8) -> String? {
                PQresultErrorField(result, Int32(code)).map { String(cString: $0) }
            }
            var message = field(UInt8(ascii: "M")) ?? PQresultErrorMessage(result).map { String(cString: $0) } ?? ""
            if message.isEmpty {
                let status = PQresStatus(PQresultStatus(result)).map { String(cString: $0) } ?? "unknown"
                message = "the statement ended with \(status), which CDQI does not handle (COPY is not supported)"
            }
            guard let state = field(UInt8(ascii: "C")) else {
                throw lostOrFailed(message: message.trimmingCharacters(in: .whitespacesAndNewlines), sql: sql)
            }
            throw PostgresError(
                kind: PostgresError.kind(forSQLState: state), sqlState: state, message: message,
                detail: field(UInt8(ascii: "D")), constraint: field(UInt8(ascii: "n")), table: field(UInt8(ascii: "t")),
                column: field(UInt8(ascii: "c")), statement: sql)
        }
    }

    private func lostOrFailed(message: String, sql: String) -> PostgresError {
        let lost = handle.map { PQstatus($0) != CONNECTION_OK } ?? true
        return PostgresError(kind: lost ? .connectionLost : .server, message: message, statement: sql)
    }

    private static func errorMessage(_ connection: OpaquePointer) -> String {
        PQerrorMessage(connection).map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }

    /// `PQconnectdbParams` with the keyword and value arrays as C strings.
    private static func connect(_ parameters: [(String, String)]) -> OpaquePointer? {
        let keywords = parameters.map { strdup($0.0) }
        let values = parameters.map { strdup($0.1) }
        defer {
            keywords.forEach { free($0) }
            values.forEach { free($0) }
        }
        let keywordArray = keywords.map { UnsafePointer($0) } + [nil]
        let valueArray = values.map { UnsafePointer($0) } + [nil]
        return keywordArray.withUnsafeBufferPointer { keywordPointers in
            valueArray.withUnsafeBufferPointer { valuePointers in
                PQconnectdbParams(keywordPointers.baseAddress, valuePointers.baseAddress, 0)
            }
        }
    }
}
