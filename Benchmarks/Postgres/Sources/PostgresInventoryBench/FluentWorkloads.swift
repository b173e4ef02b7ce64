import FluentPostgresDriver

/// The workloads through Fluent's models (vapor/fluent-kit over fluent-postgres-driver), as a Vapor
/// user writes them: `create(on:)` per item in a transaction, `query(on:).all()`, `filter(\.$code == c)
/// .first()`, `count()`, and W7's `all()` then `update(on:)` per item in a transaction. Two database
/// IDs, one per schema of the ``PostgresBenchDatabase`` (`searchPath`), one connection per event loop
/// (Fluent's default).
///
/// Differences from the hand-written contenders, all Fluent's own: W1 takes its keys from
/// `Z_PRIMARYKEY` through `SQLDatabase.raw`; W7's `update(on:)` writes `WHERE "Z_PK" = …` with no
/// `Z_OPT` check (Fluent has no optimistic locking); filters compare in the database's collation, served
/// by the index the benchmark adds for Fluent.
public final class FluentWorkloads: PostgresInventoryWorkloads, @unchecked Sendable {
    public let kind = PostgresContenderKind.fluent
    let threadPool: NIOThreadPool
    let databases: Databases
    let readDB: any Database
    let insertDB: any Database
    let itemEntity: Int64

    struct FluentFailure: Error, CustomStringConvertible {
        var description: String
    }

    public init(address: ServerAddress, insertSchema: String, readSchema: String, itemEntity: Int64) throws {
        threadPool = NIOThreadPool(numberOfThreads: 1)
        threadPool.start()
        let group = MultiThreadedEventLoopGroup.singleton
        databases = Databases(threadPool: threadPool, on: group)
        func configuration(_ schema: String) -> SQLPostgresConfiguration {
            var configuration = SQLPostgresConfiguration(
                hostname: address.host, port: address.port, username: address.user, password: address.password,
                database: address.database, tls: .disable)
            configuration.searchPath = [schema]
            return configuration
        }
        let (read, insert) = (DatabaseID(string: "read"), DatabaseID(string: "insert"))
        databases.use(.postgres(configuration: configuration(readSchema)), as: read)
        databases.use(.postgres(configuration: configuration(insertSchema)), as: insert, isDefault: false)
        let logger = Logger(label: "cdqi-bench-postgres.fluent")
        let loop = group.any()
        guard let readDB = databases.database(read, logger: logger, on: loop),
            let insertDB = databases.database(insert, logger: logger, on: loop)
        else { throw FluentFailure(description: "Fluent has no database for the benchmark's schemas") }
        self.readDB = readDB
        self.insertDB = insertDB
        self.itemEntity = itemEntity
    }

    public func insert(count: Int) async throws -> any ItemRows {
        let entity = itemEntity
        try await insertDB.transaction { tx in
            guard let sql = tx as? any SQLDatabase else { throw FluentFailure(description: "not an SQL database") }
            let allocate: SQLQueryString =
                "UPDATE \(ident: "Z_PRIMARYKEY") SET \(ident: "Z_MAX") = \(ident: "Z_MAX") + \(bind: Int64(count)) WHERE \(ident: "Z_ENT") = \(bind: entity) RETURNING \(ident: "Z_MAX")"
            let row = try await sql.raw(allocate).first()
            guard let last = try row?.decode(column: "Z_MAX", as: Int64.self) else {
                throw FluentFailure(description: "no Z_PRIMARYKEY row for Item")
            }
            let first = last - Int64(count) + 1
            for i in 0..<count {
                try await FluentItem(index: i, key: first + Int64(i), entity: entity).create(on: tx)
            }
        }
        return ItemChecksum(count: count)
    }

    public func fetchAll() async throws -> any ItemRows {
        FluentItems(items: try await FluentItem.query(on: readDB).all())
    }

    public func lookups(codes: [String]) async throws -> any ItemRows {
        var found: [FluentItem] = []
        found.reserveCapacity(codes.count)
        for code in codes {
            if let item = try await FluentItem.query(on: readDB).filter(\.$code == code).first() { found.append(item) }
        }
        return FluentItems(items: found)
    }

    public func counts(ranges: [(String, String)]) async throws -> any ItemRows {
        var total = 0
        for (low, high) in ranges {
            total += try await FluentItem.query(on: readDB).filter(\.$code >= low).filter(\.$code < high).count()
        }
        return ItemChecksum(count: total)
    }

    public func update(below limitCode: String) async throws -> any ItemRows {
        let items = try await readDB.transaction { tx in
            let items = try await FluentItem.query(on: tx).filter(\.$code < limitCode).all()
            for item in items {
                item.quantity += 1
                item.version += 1
                try await item.update(on: tx)
            }
            return items
        }
        return FluentItems(items: items, written: true)
    }

    public func shutdown() async throws {
        await databases.shutdownAsync()
        try await threadPool.shutdownGracefully()
    }
}
