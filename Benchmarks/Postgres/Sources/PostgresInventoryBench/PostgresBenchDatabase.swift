import CDQIModel
import CDQIPostgres
import CDQIPredicate
import Foundation

/// The benchmark's tables on a PostgreSQL server: two schemas of their own, laid out by CDQIPostgres's
/// `PostgresStoreLayout` (Core Data's layout of `Benchmarks/Model/Inventory.xcdatamodeld`: `ZITEM` with
/// the `byCode` fetch index on `ZCODE COLLATE "C"`, `ZCATEGORY`, `ZPART`, `Z_PRIMARYKEY`, `Z_METADATA`),
/// which every contender reads and writes as they are:
///
/// - the insert schema: the 100 categories only; W1 inserts into it, emptied before each run;
/// - the read schema: ``InventoryData``'s items and parts and the 100 categories, for W2–W7.
///
/// The read schema also has an index on `ZCODE` in the database's default collation: Fluent's filters
/// compare in that collation, which the layout's `COLLATE "C"` index cannot serve (PostgreSQL matches an
/// index's collation exactly), and a Fluent user would declare that index in a migration. Without it
/// Fluent's lookups would scan the table.
///
/// The schemas are named after the process (`cdqi_bench_<pid>_insert`, `…_read`), created on
/// ``init(url:itemCount:)`` and dropped by ``drop()``. The administrative connection is used by one task at
/// a time (the runner runs everything in sequence).
public final class PostgresBenchDatabase: @unchecked Sendable {
    public let url: PostgresURL
    public let itemCount: Int
    public let insertSchema: String
    public let readSchema: String
    /// Entity numbers (`Z_ENT`) of the layout.
    public let itemEntity: Int64, categoryEntity: Int64, partEntity: Int64
    private let admin: PostgresConnection
    private let lock = NSLock()

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The benchmark model, loaded with CDQIModel's loader.
    public static func loadModel() throws -> ManagedObjectModel {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Model/Inventory.xcdatamodeld")
        return try ModelLoader().load(url: url).model
    }

    /// Creates both schemas on the server of `url` and fills the read schema with `itemCount` items.
    public init(url: PostgresURL, itemCount: Int) throws {
        // Codes are `C` and seven digits; the SQL below pads to seven, as the generator does.
        guard itemCount > 0, itemCount < 10_000_000 else {
            throw Failure(description: "the item count \(itemCount) is outside 1..<10,000,000")
        }
        let prefix = "cdqi_bench_\(ProcessInfo.processInfo.processIdentifier)"
        let (insertSchema, readSchema) = (prefix + "_insert", prefix + "_read")
        let admin = try PostgresConnection(url: url)
        let model = try Self.loadModel()
        for schema in [insertSchema, readSchema] {
            try admin.execute("DROP SCHEMA IF EXISTS \(PostgresConnection.quoteIdentifier(schema)) CASCADE")
            _ = try PostgresStoreLayout(model: model, schemaName: schema).open(admin)
        }
        func entity(_ name: String) throws -> Int64 {
            let result = try admin.query(
                #"SELECT "Z_ENT" FROM \#(Self.table(insertSchema, "Z_PRIMARYKEY")) WHERE "Z_NAME" = $1"#, [.string(name)])
            guard result.rowCount == 1, let number = try result.int64(row: 0, column: 0) else {
                throw Failure(description: "no entity \(name) in Z_PRIMARYKEY")
            }
            return number
        }
        itemEntity = try entity("Item")
        categoryEntity = try entity("Category")
        partEntity = try entity("Part")
        self.url = url
        self.itemCount = itemCount
        self.insertSchema = insertSchema
        self.readSchema = readSchema
        self.admin = admin
        try populate()
    }

    /// `"schema"."name"`.
    public static func table(_ schema: String, _ name: String) -> String {
        PostgresConnection.quoteIdentifier(schema) + "." + PostgresConnection.quoteIdentifier(name)
    }

    /// The values of ``InventoryData/item(_:)``, worked out by the server for `generate_series` (the W2
    /// checksum compares every column with the generator's).
    private func populate() throws {
        for schema in [insertSchema, readSchema] {
            try admin.query(
                #"INSERT INTO \#(Self.table(schema, "ZCATEGORY")) ("Z_PK", "Z_ENT", "Z_OPT", "ZNAME") "#
                    + "SELECT c + 1, $1, 1, 'Category ' || c FROM generate_series(0, $2 - 1) AS c",
                [.integer(categoryEntity), .integer(Int64(InventoryData.categoryCount))])
            try setMaximumKey(schema, entity: categoryEntity, to: Int64(InventoryData.categoryCount))
        }
        try admin.query(
            "INSERT INTO \(Self.table(readSchema, "ZITEM")) (\(ItemRecord.columns)) "
                + "SELECT i + 1, $1, 1, (i % 2 = 0)::int, 'C' || lpad(i::text, 7, '0'), 700000000 + i::float8 * 60, "
                + "(i % 10000)::float8 / 100, i % 1000, i % 100, (i * 7) % 10000, 'Item ' || i, i % $3 + 1 "
                + "FROM generate_series(0, $2 - 1) AS i",
            [.integer(itemEntity), .integer(Int64(itemCount)), .integer(Int64(InventoryData.categoryCount))])
        let parts = try admin.query(
            #"INSERT INTO \#(Self.table(readSchema, "ZPART")) ("Z_PK", "Z_ENT", "Z_OPT", "ZKIND", "ZNAME", "ZITEM") "#
                + "SELECT row_number() OVER (ORDER BY i, j), $1, 1, (i + j) % 5, 'Part ' || i || '-' || j, i + 1 "
                + "FROM generate_series(0, $2 - 1) AS i, generate_series(0, 1) AS j WHERE j < i % 3",
            [.integer(partEntity), .integer(Int64(itemCount))])
        try setMaximumKey(readSchema, entity: itemEntity, to: Int64(itemCount))
        try setMaximumKey(readSchema, entity: partEntity, to: Int64(parts.affectedRowCount))
        try admin.execute(
            "CREATE INDEX ZITEM_ZCODE_default_collation ON \(Self.table(readSchema, "ZITEM")) (\"ZCODE\")")
        for schema in [insertSchema, readSchema] {
            for table in ["ZITEM", "ZCATEGORY", "ZPART", "Z_PRIMARYKEY"] {
                try admin.execute("VACUUM ANALYZE \(Self.table(schema, table))")
            }
        }
    }

    private func setMaximumKey(_ schema: String, entity: Int64, to maximum: Int64) throws {
        try admin.query(
            #"UPDATE \#(Self.table(schema, "Z_PRIMARYKEY")) SET "Z_MAX" = $1 WHERE "Z_ENT" = $2"#,
            [.integer(maximum), .integer(entity)])
    }

    private func withAdmin<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(admin)
    }

    // MARK: Around the timed runs

    /// Before each W1 run: no items, `Z_MAX` of Item back to 0.
    public func resetInsertSchema() throws {
        try withAdmin { admin in
            try admin.execute("TRUNCATE \(Self.table(insertSchema, "ZITEM"))")
            try setMaximumKey(insertSchema, entity: itemEntity, to: 0)
        }
    }

    /// After each W1 run: the insert schema holds items `0..<count` with keys 1…`count`, every column as
    /// the generator made it, and `Z_MAX` is `count`.
    public func checkInserted(count: Int) throws {
        let found = try checksum(of: insertSchema)
        let expected = ItemChecksum(indices: 0..<count, entity: itemEntity)
        guard found == expected else { throw Failure(description: "the inserted items are \(found), expected \(expected)") }
        let maximum = try maximumKey(insertSchema)
        guard maximum == Int64(count) else { throw Failure(description: "Z_MAX of Item is \(maximum), expected \(count)") }
    }

    /// Before each W7 run: the items below `limitCode` get back their generated quantity and version 1,
    /// and the table is vacuumed, so that every run updates the same rows in the same pages.
    public func resetUpdates(below limitCode: String) throws {
        try withAdmin { admin in
            try admin.query(
                #"UPDATE \#(Self.table(readSchema, "ZITEM")) SET "ZQUANTITY" = ("Z_PK" - 1) % 1000, "Z_OPT" = 1 "#
                    + #"WHERE "ZCODE" COLLATE "C" < $1"#, [.string(limitCode)])
            try admin.execute("VACUUM \(Self.table(readSchema, "ZITEM"))")
        }
    }

    /// After each W7 run: items `0..<count` have their generated quantity + 1 and version 2, the others
    /// are as generated.
    public func checkUpdated(count: Int) throws {
        var expected = ItemChecksum(indices: count..<itemCount, entity: itemEntity)
        var updated = ItemChecksum(indices: 0..<count, entity: itemEntity, version: 2)
        updated.quantitySum += Int64(count)
        expected.merge(updated)
        let found = try checksum(of: readSchema)
        guard found == expected else { throw Failure(description: "after the updates the items are \(found), expected \(expected)") }
    }

    private func maximumKey(_ schema: String) throws -> Int64 {
        try withAdmin { admin in
            let result = try admin.query(
                #"SELECT "Z_MAX" FROM \#(Self.table(schema, "Z_PRIMARYKEY")) WHERE "Z_ENT" = $1"#, [.integer(itemEntity)])
            guard result.rowCount == 1, let maximum = try result.int64(row: 0, column: 0) else {
                throw Failure(description: "no Z_PRIMARYKEY row for Item in \(schema)")
            }
            return maximum
        }
    }

    /// Every item of `schema`, read back through our driver.
    private func checksum(of schema: String) throws -> ItemChecksum {
        try withAdmin { admin in
            try DriverWorkloads.items(admin.query("SELECT \(ItemRecord.columns) FROM \(Self.table(schema, "ZITEM"))"))
                .checksum()
        }
    }

    /// Drops both schemas and closes the connection.
    public func drop() throws {
        try withAdmin { admin in
            for schema in [insertSchema, readSchema] {
                try admin.execute("DROP SCHEMA IF EXISTS \(PostgresConnection.quoteIdentifier(schema)) CASCADE")
            }
            admin.close()
        }
    }
}
