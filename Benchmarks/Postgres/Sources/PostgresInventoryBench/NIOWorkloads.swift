import PostgresNIO

/// Where the postgres-nio and Fluent contenders connect: the parts of the benchmark's URL (those files
/// do not import CDQIPostgres, whose `PostgresConnection` would clash with postgres-nio's).
public struct ServerAddress: Sendable {
    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String?

    public init(host: String, port: Int, user: String, password: String?, database: String?) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
    }
}

/// Values built up by callbacks on a connection's event loop: touched only on that loop, by one
/// callback at a time, then read once the chain's future has completed.
final class LoopConfined<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// The workloads written against vapor/postgres-nio by hand, its fastest way: the statements of
/// ``InventorySQL`` prepared once under a name (`prepare(query:)`), rows read through the row callback
/// of `PreparedQuery.execute(_:_:)` (not the `for try await` row sequence; its cells decoded as the
/// binary values they are, see ``next(_:as:)``), and each workload's
/// statements chained on the connection's event loop, each sent when the previous one's result has
/// arrived (one statement at a time, as libpq runs them, without a thread hop per statement). W7's
/// UPDATE adds `RETURNING "Z_PK"`: the row callback path reports rows, not the command's row count.
///
/// Used by one task at a time (the runner runs contenders in sequence).
public final class NIOWorkloads: PostgresInventoryWorkloads, @unchecked Sendable {
    public let kind = PostgresContenderKind.postgresNIO
    let connection: PostgresConnection
    let logger = Logger(label: "cdqi-bench-postgres.nio")
    let itemEntity: Int64
    let allocateQuery: PreparedQuery, insertQuery: PreparedQuery, fetchAllQuery: PreparedQuery
    let lookupQuery: PreparedQuery, countQuery: PreparedQuery, fetchBelowQuery: PreparedQuery, updateQuery: PreparedQuery

    public init(address: ServerAddress, sql: InventorySQL, itemEntity: Int64) async throws {
        let configuration = PostgresConnection.Configuration(
            host: address.host, port: address.port, username: address.user, password: address.password,
            database: address.database, tls: .disable)
        connection = try await PostgresConnection.connect(
            on: PostgresConnection.defaultEventLoopGroup.any(), configuration: configuration, id: 1, logger: logger)
        self.itemEntity = itemEntity
        allocateQuery = try await connection.prepare(query: sql.allocateKeys).get()
        insertQuery = try await connection.prepare(query: sql.insert).get()
        fetchAllQuery = try await connection.prepare(query: sql.fetchAll).get()
        lookupQuery = try await connection.prepare(query: sql.lookup).get()
        countQuery = try await connection.prepare(query: sql.count).get()
        fetchBelowQuery = try await connection.prepare(query: sql.fetchBelow).get()
        updateQuery = try await connection.prepare(query: sql.updateChecked + #" RETURNING "Z_PK""#).get()
    }

    public func insert(count: Int) async throws -> any ItemRows {
        try await inTransaction {
            let last = LoopConfined<Int64?>(nil)
            try await allocateQuery.execute([PostgresData(int64: Int64(count)), PostgresData(int64: itemEntity)]) { row in
                last.value = try Self.first(row, as: Int64.self)
            }.get()
            guard let last = last.value else { throw NIOFailure(description: "no Z_PRIMARYKEY row for Item") }
            let first = last - Int64(count) + 1
            let (insert, entity) = (insertQuery, itemEntity)
            try await Self.sequence(count, on: connection.eventLoop) { i in
                let item = InventoryData.item(i)
                return insert.execute([
                    PostgresData(int64: first + Int64(i)), PostgresData(int64: entity),
                    PostgresData(int64: item.active ? 1 : 0), PostgresData(string: item.code),
                    PostgresData(double: item.createdAt.timeIntervalSinceReferenceDate), PostgresData(double: item.price),
                    PostgresData(int64: item.quantity), PostgresData(int64: Int64(item.rank)),
                    PostgresData(int64: Int64(item.score)), PostgresData(string: item.title),
                    PostgresData(int64: Int64(item.category + 1)),
                ]) { _ in }
            }.get()
        }
        return ItemChecksum(count: count)
    }

    public func fetchAll() async throws -> any ItemRows {
        let items = LoopConfined([ItemRecord]())
        try await fetchAllQuery.execute([]) { row in items.value.append(try Self.item(row)) }.get()
        return items.value
    }

    public func lookups(codes: [String]) async throws -> any ItemRows {
        let found = LoopConfined([ItemRecord]())
        found.value.reserveCapacity(codes.count)
        let lookup = lookupQuery
        try await Self.sequence(codes.count, on: connection.eventLoop) { i in
            lookup.execute([PostgresData(string: codes[i])]) { row in found.value.append(try Self.item(row)) }
        }.get()
        return found.value
    }

    public func counts(ranges: [(String, String)]) async throws -> any ItemRows {
        let total = LoopConfined<Int64>(0)
        let count = countQuery
        let bounds = ranges.map { [PostgresData(string: $0.0), PostgresData(string: $0.1)] }
        try await Self.sequence(bounds.count, on: connection.eventLoop) { i in
            count.execute(bounds[i]) { row in total.value += try Self.first(row, as: Int64.self) }
        }.get()
        return ItemChecksum(count: Int(total.value))
    }

    public func update(below limitCode: String) async throws -> any ItemRows {
        try await inTransaction {
            let read = LoopConfined([ItemRecord]())
            try await fetchBelowQuery.execute([PostgresData(string: limitCode)]) { row in
                read.value.append(try Self.item(row))
            }.get()
            let items = read.value
            let changed = LoopConfined(0)
            let update = updateQuery
            try await Self.sequence(items.count, on: connection.eventLoop) { i in
                let item = items[i]
                return update.execute([
                    PostgresData(int64: item.quantity + 1), PostgresData(int64: item.version + 1),
                    PostgresData(int64: item.id), PostgresData(int64: item.version),
                ]) { _ in changed.value += 1 }
                .flatMapThrowing { _ in
                    guard changed.value == i + 1 else { throw NIOFailure(description: "item \(item.id) changed meanwhile") }
                }
            }.get()
            return items
        }
    }

    public func shutdown() async throws { try await connection.close() }

    // MARK: Helpers

    struct NIOFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// `body` between `BEGIN` and `COMMIT` (`ROLLBACK` when it throws).
    private func inTransaction<T>(_ body: () async throws -> T) async throws -> T {
        _ = try await connection.simpleQuery("BEGIN").get()
        do {
            let value = try await body()
            _ = try await connection.simpleQuery("COMMIT").get()
            return value
        } catch {
            _ = try? await connection.simpleQuery("ROLLBACK").get()
            throw error
        }
    }

    /// Runs `step(0)` … `step(count - 1)` on `loop`, each once the previous one's future has succeeded;
    /// fails with the first failure.
    static func sequence(
        _ count: Int, on loop: any EventLoop, _ step: @escaping @Sendable (Int) -> EventLoopFuture<Void>
    ) -> EventLoopFuture<Void> {
        let promise = loop.makePromise(of: Void.self)
        @Sendable func run(_ index: Int) {
            guard index < count else { return promise.succeed() }
            step(index).whenComplete { result in
                switch result {
                case .success: run(index + 1)
                case .failure(let error): promise.fail(error)
                }
            }
        }
        loop.execute { run(0) }
        return promise.futureResult
    }

    /// A row selecting ``ItemRecord/columns``.
    static func item(_ row: PostgresRow) throws -> ItemRecord {
        var cells = row.makeIterator()
        return ItemRecord(
            id: try next(&cells), entity: try next(&cells), version: try next(&cells),
            active: try next(&cells, as: Int64.self) != 0, code: try next(&cells), createdAt: try next(&cells),
            price: try next(&cells), quantity: try next(&cells), rank: Int16(truncatingIfNeeded: try next(&cells, as: Int64.self)),
            score: Int32(truncatingIfNeeded: try next(&cells, as: Int64.self)), title: try next(&cells), category: try next(&cells))
    }

    /// The first column of `row`.
    static func first<T: PostgresDecodable>(_ row: PostgresRow, as type: T.Type = T.self) throws -> T {
        var cells = row.makeIterator()
        return try next(&cells)
    }

    /// The next cell of a row, decoded by postgres-nio's own decoder as the binary value the server sent.
    /// The legacy `PreparedQuery` labels its rows' columns `text` (1.33.2 keeps the row description of
    /// the statement's preparation, in which PostgreSQL says text, while every execution asks for binary
    /// results), so `row.decode` refuses them; the cells' bytes are binary.
    static func next<T: PostgresDecodable>(_ cells: inout PostgresRow.Iterator, as type: T.Type = T.self) throws -> T {
        guard var cell = cells.next() else { throw NIOFailure(description: "the row has fewer columns than selected") }
        cell.format = .binary
        return try cell.decode(T.self, context: .default)
    }
}
