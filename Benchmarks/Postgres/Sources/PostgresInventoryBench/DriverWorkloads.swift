import CDQIPostgres
import CDQIPredicate

/// The workloads through CDQIPostgres's `PostgresConnection` used directly: the statements of
/// ``InventorySQL`` with `StoredValue` parameters (bound in binary, prepared once and cached by the
/// connection), results read as `StoredValue`s. This is the layer the PostgreSQL store will sit on, so
/// its distance from raw libpq is the part of "ours" that the driver costs.
///
/// Used by one task at a time (the runner runs contenders in sequence).
public final class DriverWorkloads: PostgresInventoryWorkloads, @unchecked Sendable {
    public let kind = PostgresContenderKind.driver
    let connection: PostgresConnection
    let sql: InventorySQL
    let itemEntity: Int64

    public init(database: PostgresBenchDatabase) throws {
        connection = try PostgresConnection(url: database.url)
        sql = InventorySQL(database: database)
        itemEntity = database.itemEntity
    }

    public func insert(count: Int) throws -> any ItemRows {
        try connection.transaction {
            let keys = try connection.query(sql.allocateKeys, [.integer(Int64(count)), .integer(itemEntity)])
            guard keys.rowCount == 1, let last = try keys.int64(row: 0, column: 0) else {
                throw PostgresBenchDatabase.Failure(description: "no Z_PRIMARYKEY row for Item")
            }
            let first = last - Int64(count) + 1
            for i in 0..<count {
                let item = InventoryData.item(i)
                try connection.query(
                    sql.insert,
                    [
                        .integer(first + Int64(i)), .integer(itemEntity), .bool(item.active), .string(item.code),
                        .date(secondsSinceReferenceDate: item.createdAt.timeIntervalSinceReferenceDate),
                        .double(item.price), .integer(item.quantity), .integer(Int64(item.rank)),
                        .integer(Int64(item.score)), .string(item.title), .integer(Int64(item.category + 1)),
                    ])
            }
        }
        return ItemChecksum(count: count)
    }

    public func fetchAll() throws -> any ItemRows {
        try Self.items(connection.query(sql.fetchAll))
    }

    public func lookups(codes: [String]) throws -> any ItemRows {
        var found: [ItemRecord] = []
        found.reserveCapacity(codes.count)
        for code in codes {
            let result = try connection.query(sql.lookup, [.string(code)])
            if result.rowCount == 1 { found.append(try Self.item(result, row: 0)) }
        }
        return found
    }

    public func counts(ranges: [(String, String)]) throws -> any ItemRows {
        var total: Int64 = 0
        for (low, high) in ranges {
            let result = try connection.query(sql.count, [.string(low), .string(high)])
            total += try result.int64(row: 0, column: 0) ?? 0
        }
        return ItemChecksum(count: Int(total))
    }

    public func update(below limitCode: String) throws -> any ItemRows {
        try connection.transaction {
            let items = try Self.items(connection.query(sql.fetchBelow, [.string(limitCode)]))
            for item in items {
                let result = try connection.query(
                    sql.updateChecked,
                    [.integer(item.quantity + 1), .integer(item.version + 1), .integer(item.id), .integer(item.version)])
                guard result.affectedRowCount == 1 else {
                    throw PostgresBenchDatabase.Failure(description: "item \(item.id) changed meanwhile")
                }
            }
            return items
        }
    }

    public func shutdown() { connection.close() }

    // MARK: Reading

    /// Every row of a result selecting ``ItemRecord/columns``.
    static func items(_ result: PostgresResult) throws -> [ItemRecord] {
        var items: [ItemRecord] = []
        items.reserveCapacity(result.rowCount)
        for row in 0..<result.rowCount { items.append(try item(result, row: row)) }
        return items
    }

    static func item(_ result: PostgresResult, row: Int) throws -> ItemRecord {
        func integer(_ column: Int) throws -> Int64 {
            guard case .integer(let value) = try result.value(row: row, column: column) else { throw unexpected(column) }
            return value
        }
        func double(_ column: Int) throws -> Double {
            guard case .double(let value) = try result.value(row: row, column: column) else { throw unexpected(column) }
            return value
        }
        func string(_ column: Int) throws -> String {
            guard case .string(let value) = try result.value(row: row, column: column) else { throw unexpected(column) }
            return value
        }
        func unexpected(_ column: Int) -> PostgresBenchDatabase.Failure {
            PostgresBenchDatabase.Failure(description: "column \(column) of row \(row) does not hold the expected type")
        }
        return ItemRecord(
            id: try integer(0), entity: try integer(1), version: try integer(2), active: try integer(3) != 0,
            code: try string(4), createdAt: try double(5), price: try double(6), quantity: try integer(7),
            rank: Int16(truncatingIfNeeded: try integer(8)), score: Int32(truncatingIfNeeded: try integer(9)),
            title: try string(10), category: result.isNull(row: row, column: 11) ? nil : try integer(11))
    }
}
