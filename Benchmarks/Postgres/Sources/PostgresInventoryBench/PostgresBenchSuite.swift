import CDQIPostgres
import Foundation

/// Builds W1, W2, W3, W4 and W7 over one ``PostgresBenchDatabase``, each with one contender per
/// implementation given, and the checksum each run must return (worked out from ``InventoryData``).
public final class PostgresBenchSuite: Sendable {
    public let sizes: BenchmarkSizes
    public let database: PostgresBenchDatabase

    /// Creates the benchmark's schemas on the server of `url` (a `postgres://` URL).
    public init(url: String, sizes: BenchmarkSizes) throws {
        guard sizes.rangeWidth < sizes.items, sizes.updates <= sizes.items, sizes.lookups <= sizes.items else {
            throw PostgresBenchDatabase.Failure(description: "the sizes do not fit in \(sizes.items) items")
        }
        self.sizes = sizes
        database = try PostgresBenchDatabase(url: PostgresURL(url), itemCount: sizes.items)
    }

    /// Where postgres-nio and Fluent connect.
    public var address: ServerAddress {
        let url = database.url
        return ServerAddress(
            host: url.host, port: url.port, user: url.user ?? "postgres", password: url.password, database: url.database)
    }

    /// Ours, the hand-written contenders and Fluent, connected and with their statements prepared.
    public func implementations() async throws -> [any PostgresInventoryWorkloads] {
        let sql = InventorySQL(database: database)
        return [
            try OursWorkloads(database: database),
            try LibPQWorkloads(database: database),
            try await NIOWorkloads(address: address, sql: sql, itemEntity: database.itemEntity),
            try DriverWorkloads(database: database),
            try FluentWorkloads(
                address: address, insertSchema: database.insertSchema, readSchema: database.readSchema,
                itemEntity: database.itemEntity),
        ]
    }

    /// W1, W2, W3, W4 and W7, in order, each run by every implementation.
    public func workloads(_ implementations: [any PostgresInventoryWorkloads]) -> [PostgresWorkload] {
        let s = sizes
        let db = database
        let codes = s.lookupCodes
        let ranges = s.countRanges
        let limitCode = InventoryData.code(s.updates)
        let all = ItemChecksum(indices: 0..<s.items, entity: db.itemEntity)
        let looked = ItemChecksum(indices: (0..<s.lookups).map { $0 * s.items / s.lookups }, entity: db.itemEntity)
        let below = ItemChecksum(indices: 0..<s.updates, entity: db.itemEntity)
        func contenders(
            prepare: @escaping @Sendable () async throws -> Void = {},
            verify: @escaping @Sendable () async throws -> Void = {},
            _ run: @escaping @Sendable (any PostgresInventoryWorkloads) async throws -> any ItemRows
        ) -> [PostgresContender] {
            implementations.map { implementation in
                PostgresContender(implementation.kind, prepare: prepare, run: { try await run(implementation) }, verify: verify)
            }
        }
        return [
            PostgresWorkload(
                id: "W1", label: "insert \(s.label.items)", expected: ItemChecksum(count: s.items),
                note: "one transaction, one INSERT per item, keys from Z_PRIMARYKEY; every row read back and checked",
                contenders: contenders(
                    prepare: { try db.resetInsertSchema() }, verify: { try db.checkInserted(count: s.items) }
                ) { try await $0.insert(count: s.items) }),
            PostgresWorkload(
                id: "W2", label: "fetch \(s.label.items)", expected: all,
                note: "every column of every row into Swift values; checksum of all of them checked",
                contenders: contenders { try await $0.fetchAll() }),
            PostgresWorkload(
                id: "W3", label: "lookup by code x\(s.label.lookups)", expected: looked,
                note: "one indexed query per code; the found rows' checksum checked",
                contenders: contenders { try await $0.lookups(codes: codes) }),
            PostgresWorkload(
                id: "W4", label: "count x\(s.label.counts)", expected: ItemChecksum(count: s.counts * s.rangeWidth),
                note: "COUNT over \(s.rangeWidth) codes of the index per query; the total checked",
                contenders: contenders { try await $0.counts(ranges: ranges) }),
            PostgresWorkload(
                id: "W7", label: "update \(s.label.updates)", expected: below,
                note: "read the rows, then one UPDATE per row in a transaction (Z_OPT checked, except Fluent's);"
                    + " rows reset and vacuumed before each run, every row read back and checked after",
                contenders: contenders(
                    prepare: { try db.resetUpdates(below: limitCode) }, verify: { try db.checkUpdated(count: s.updates) }
                ) { try await $0.update(below: limitCode) }),
        ]
    }
}
