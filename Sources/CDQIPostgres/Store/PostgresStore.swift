import CDQIModel
import CDQIObjects
import CDQIPredicate
import Foundation

/// A Core Data store in a PostgreSQL schema: the same model, contexts, objects and queries as a
/// SQLite store, for services whose app servers share one database.
///
/// The tables are Core Data's (``PostgresStoreLayout``): a new schema gets them, with the SQL
/// functions the query compiler's PostgreSQL dialect calls (``PostgresFunctions``); a schema that has
/// them is checked against the model (a store written for another model is refused, naming every
/// difference). Contexts reach it through a coordinator:
///
/// ```swift
/// let coordinator = try PersistentStoreCoordinator(model: model, postgresURL: "postgres://app@db/shop?schema=sales")
/// let context = ManagedObjectContext(coordinator: coordinator)
/// ```
///
/// Every read is one statement, which sees one committed state of the database (a fetch never sees
/// part of a save). Each save is one transaction on one connection of the store's pool: primary keys
/// come from `Z_PRIMARYKEY` under its row lock, so that processes on any number of machines never
/// take the same key; updates and deletes expect the row version (`Z_OPT`) their objects were read at,
/// so that a change made meanwhile by another process is resolved by the context's merge policy, as on
/// SQLite (a save resolving conflicts locks the rows it read until it commits, so that what it resolved
/// cannot change again before it writes). A save that meets a deadlock or a serialization failure is run
/// again, up to 5 times; one that meets a unique index's violation (another process saved the same
/// constrained values after this save checked them) is run again too, and its check then refuses it with
/// the same ``ContextError/validation(_:)`` a SQLite save gives.
///
/// It is `Sendable`: its state is immutable, and each connection of the pool is used by one caller at a time.
public final class PostgresStore: PersistentStore, @unchecked Sendable {
    /// Where the store lives.
    public let url: PostgresURL
    /// The model.
    public let model: ManagedObjectModel
    /// The store's metadata (its UUID is the host part of object-ID URIs).
    public let metadata: StoreMetadata
    /// Where the model's entities live (the SQLite store's mapping).
    public let schema: StoreSchema
    /// The connections of the store.
    public let pool: PostgresConnectionPool
    let layout: PostgresStoreLayout
    /// Fetches compiled so far, by shape; guarded by `fetchCacheLock` (the store is shared by threads).
    private let fetchCache = CompiledFetchCache()
    private let fetchCacheLock = NSLock()

    package var dialect: SQLDialect { .postgres }
    package var location: String { url.description }

    /// The most connections a store opens when no count is given.
    public static let defaultConnectionCount = 8

    /// Opens the store in `url`'s schema, creating it when the schema has no tables.
    ///
    /// - Throws: ``StoreError/modelMismatch(path:differences:)`` for a store written for another
    ///   model, ``StoreError/server(path:message:)`` when the server refuses or cannot be reached.
    public init(
        model: ManagedObjectModel, url: PostgresURL, connections: Int = PostgresStore.defaultConnectionCount
    )
        throws(StoreError)
    {
        self.url = url
        self.model = model
        layout = PostgresStoreLayout(model: model, schemaName: url.schema)
        schema = layout.storeSchema
        pool = PostgresConnectionPool(url: url, capacity: connections)
        let layout = layout
        do {
            metadata = try pool.withConnection { connection in
                let metadata = try layout.open(connection)
                try Self.installFunctions(connection, schema: url.schema)
                return metadata
            }
        } catch {
            pool.close()
            throw Self.storeError(error, location: url.description)
        }
    }

    deinit {
        pool.close()
    }

    /// Installs the compiler's SQL functions in the schema unless they are there, under the same
    /// advisory lock as creating the tables (two processes replacing one function at once would fail).
    private static func installFunctions(_ connection: PostgresConnection, schema: String) throws {
        let present = try connection.query(
            "SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
                + "WHERE n.nspname = $1 AND p.proname = 'cdqi_matches'", [.string(schema)])
        if try present.int64(row: 0, column: 0) ?? 0 > 0 { return }
        try connection.transaction {
            try connection.query(
                "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [.string("cdqi.layout." + schema)])
            let again = try connection.query(
                "SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
                    + "WHERE n.nspname = $1 AND p.proname = 'cdqi_matches'", [.string(schema)])
            if try again.int64(row: 0, column: 0) ?? 0 == 0 {
                try connection.execute(PostgresFunctions.script(schema: schema))
            }
        }
    }

    /// A store error for what the driver or the layout threw.
    static func storeError(_ error: any Error, location: String) -> StoreError {
        switch error {
        case let error as StoreError: return error
        case PostgresStoreError.modelMismatch(_, let differences): return .modelMismatch(path: location, differences: differences)
        case PostgresStoreError.damagedStore(_, let reason): return .damagedStore(path: location, reason: reason)
        case PostgresStoreError.postgres(let error): return .server(path: location, message: error.description)
        case let error as PostgresStoreError: return .server(path: location, message: error.description)
        case let error as PostgresError: return .server(path: location, message: error.description)
        default: return .server(path: location, message: "\(error)")
        }
    }

    /// Runs `body` with a connection of the pool; the driver's errors leave as store errors, any other
    /// (a query the compiler refuses, a save's validation) as it is.
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        do {
            return try pool.withConnection(body)
        } catch let error as PostgresError {
            throw Self.storeError(error, location: location)
        } catch let error as PostgresStoreError {
            throw Self.storeError(error, location: location)
        }
    }

    // MARK: Compiling

    /// A request's SQL in the PostgreSQL dialect, and its parameters.
    func statement(_ request: FetchRequest, shape: FetchSQLBuilder.Shape) throws -> (sql: String, parameters: [StoredValue]) {
        let (entry, constants) = try fetchCacheLock.withLock {
            try fetchCache.compiled(
                request, shape: shape, model: model, schema: schema, storeIdentifier: metadata.uuid, dialect: .postgres)
        }
        return (entry.sql, entry.bindings.map { $0.resolve(constants: constants, request: request) })
    }

    // MARK: Reading

    package func fetchObjectReferences(_ request: FetchRequest) throws -> [ObjectReference] {
        let (sql, parameters) = try statement(request, shape: .objectIDs)
        let result = try withConnection { connection in try connection.query(sql, parameters) }
        var references: [ObjectReference] = []
        references.reserveCapacity(result.rowCount)
        for index in 0..<result.rowCount {
            let (entity, key) = try entityAndKey(of: CellRow(cells: result, row: index))
            references.append(ObjectReference(entityName: entity.name, storeIdentifier: metadata.uuid, identity: .primaryKey(key)))
        }
        try checkCells(of: result)
        return references
    }

    package func count(_ request: FetchRequest) throws -> Int {
        let (sql, parameters) = try statement(request, shape: .count)
        return try withConnection { connection in
            let result = try connection.query(sql, parameters)
            return Int(try result.int64(row: 0, column: 0) ?? 0)
        }
    }

    package func readObjects(
        _ request: FetchRequest, layout: EntityLayout, reader: inout RowObjectReader, into objects: inout [ManagedObject]
    ) throws {
        let (sql, parameters) = try statement(request, shape: .rows(columns: layout.tableColumnsSQL(.postgres)))
        try read(sql, parameters, table: layout.tableName, reader: &reader, into: &objects, ownerPosition: nil) { _, _ in }
    }

    package func readObjects(
        _ query: KeyedRowQuery, keys: [Int64], reader: inout RowObjectReader, into objects: inout [ManagedObject],
        _ each: (ManagedObject, Int64?) -> Void
    ) throws {
        try read(query.sql, keys.map(StoredValue.integer), table: nil, reader: &reader, into: &objects, ownerPosition: query.ownerPosition, each)
    }

    private func read(
        _ sql: String, _ parameters: [StoredValue], table: String?, reader: inout RowObjectReader,
        into objects: inout [ManagedObject], ownerPosition: Int?, _ each: (ManagedObject, Int64?) -> Void
    ) throws {
        // A result is libpq's memory, apart from its connection: the connection goes back to the pool
        // before the rows are read into objects.
        let result = try withConnection { connection in try connection.query(sql, parameters) }
        result.tableName = table
        if let error = result.unreadableColumn() { throw Self.storeError(error, location: location) }
        objects.reserveCapacity(objects.count + result.rowCount)
        var row = CellRow(cells: result, row: 0)
        while row.row < result.rowCount {
            let object = try reader.object(atCells: row).object
            each(object, ownerPosition.flatMap { row.integer($0) })
            objects.append(object)
            row.row += 1
        }
        try checkCells(of: result)
    }

    /// Throws the error of a cell that did not decode while the result's rows were read, if one did.
    private func checkCells(of result: PostgresResult) throws(StoreError) {
        if let error = result.cellError { throw Self.storeError(error, location: location) }
    }

    package func readReferences(_ query: KeyedRowQuery, keys: [Int64]) throws -> [(entityNumber: Int, key: Int64)] {
        let result = try withConnection { connection in try connection.query(query.sql, keys.map(StoredValue.integer)) }
        let references = try (0..<result.rowCount).map { index in
            let (entity, key) = try entityAndKey(of: CellRow(cells: result, row: index))
            return (entityNumber: entity.number, key: key)
        }
        try checkCells(of: result)
        return references
    }

    /// The entity (`Z_ENT`, first column) and primary key (second) of a row; a `Z_ENT` that names no
    /// entity of the model is a damaged store, reported naming the row.
    private func entityAndKey(of row: CellRow) throws(StoreError) -> (EntityMapping, Int64) {
        guard row.holdsInteger(0), let entity = schema.entity(number: Int(row.int64(0))) else {
            throw StoreError.unknownEntityRow(row, path: location)
        }
        return (entity, row.int64(1))
    }

    package func readRow(of layout: EntityLayout, key: Int64) throws -> StoredRow? {
        try withConnection { connection in try Self.readRow(of: layout, key: key, on: connection) }
    }

    /// The row `key` of `layout`'s table read on `connection`, or `nil`.
    static func readRow(of layout: EntityLayout, key: Int64, on connection: PostgresConnection) throws -> StoredRow? {
        let sql = layout.postgresSelectRowSQL
        let result = try connection.query(sql, [.integer(key)])
        guard result.rowCount > 0 else { return nil }
        result.tableName = layout.tableName
        if let error = result.unreadableColumn() { throw error }
        let row = StoredRow.decode(layout, fromCells: CellRow(cells: result, row: 0), plan: layout.rowPlan)
        if let error = result.cellError { throw error }
        return row
    }

    package func explain(_ request: FetchRequest) throws -> FetchExplanation {
        let sql: String
        let parameters: [StoredValue]
        if request.propertiesToFetch.isEmpty && request.propertiesToGroupBy.isEmpty {
            (sql, parameters) = try statement(request, shape: .objectIDs)
        } else {
            let builder = DictionaryFetchSQLBuilder(model: model, schema: schema, storeIdentifier: metadata.uuid, dialect: .postgres)
            let fragment = try builder.build(request).0
            sql = SQLDialect.postgres.statementText(fragment)
            parameters = fragment.bindings.map { $0.resolve(constants: [], request: request) }
        }
        let plan = try withConnection { connection in
            let result = try connection.queryUncached("EXPLAIN " + sql, parameters)
            return try (0..<result.rowCount).compactMap { try result.string(row: $0, column: 0) }
        }
        var warnings: [String] = []
        if let predicate = request.predicate {
            warnings += MixedKindComparison.find(in: predicate, entityName: request.entityName, model: model).map(\.description)
        }
        return FetchExplanation(sql: sql, bindings: parameters, queryPlan: plan, warnings: warnings)
    }

    // MARK: Writing

    /// How many times a save runs when its writes meet a unique index's violation (`23505`).
    static let uniqueViolationAttempts = 5

    /// Runs a save's `body` in a READ COMMITTED transaction, again when it meets a deadlock or a
    /// serialization failure (``PostgresConnection/retryingTransaction(isolation:attempts:_:)``), and
    /// again when it meets a unique violation: another process committed a row with the same values
    /// for a uniqueness constraint after the save checked them (``SaveWriter`` checks before writing).
    /// That row is committed, so the save's check sees it when the save runs again and refuses it with
    /// the ``ContextError/validation(_:)`` (``ValidationFailure/Problem/notUnique(properties:otherObject:)``)
    /// a save on SQLite gives, naming that object.
    package func write<T>(_ body: (any SaveTransaction) throws -> T) throws -> T {
        try withConnection { connection in
            var attempt = 1
            while true {
                do {
                    return try connection.retryingTransaction(isolation: .readCommitted) {
                        try body(PostgresSaveTransaction(connection: connection, layout: layout, location: location))
                    }
                } catch let error as PostgresError where error.kind == .uniqueViolation && attempt < Self.uniqueViolationAttempts {
                    attempt += 1
                }
            }
        }
    }
}

extension PostgresStore {
    package func runBatch(
        _ statement: SQLFragment, request: FetchRequest?, deleteRules: BatchDeleteRules?
    ) throws -> BatchWriter.Written {
        if let deleteRules, !deleteRules.isEmpty, let request {
            return try runBatchDelete(request, rules: deleteRules)
        }
        let sql = SQLDialect.postgres.statementText(statement)
        let request = request ?? FetchRequest(entityName: "")
        let parameters = statement.bindings.map { $0.resolve(constants: [], request: request) }
        return try withConnection { connection in
            try connection.retryingTransaction(isolation: .readCommitted) {
                let result = try connection.query(sql, parameters)
                guard result.columnCount >= 2 else { return BatchWriter.Written(matchedCount: result.affectedRowCount) }
                let rows = try (0..<result.rowCount).map { row in
                    BatchWriter.Row(entity: Int(try result.int64(row: row, column: 0) ?? 0), key: try result.int64(row: row, column: 1) ?? 0)
                }
                return BatchWriter.Written(matched: rows, matchedCount: rows.count)
            }
        }
    }

    /// A batch delete whose delete rules touch other rows (``PostgresBatchDelete``), in one transaction,
    /// run again when it meets a deadlock or a serialization failure (another process deleting or
    /// changing the same rows).
    private func runBatchDelete(_ request: FetchRequest, rules: BatchDeleteRules) throws -> BatchWriter.Written {
        let builder = BatchStatementBuilder(model: model, schema: schema, storeIdentifier: metadata.uuid, dialect: .postgres)
        let condition = try builder.selection(request).condition
        let parameters = condition.bindings.map { $0.resolve(constants: [], request: request) }
        let delete = PostgresBatchDelete(rules: rules)
        return try withConnection { connection in
            try connection.retryingTransaction(isolation: .readCommitted) {
                try delete.run(condition: condition, parameters: parameters, on: connection)
            }
        }
    }
}
