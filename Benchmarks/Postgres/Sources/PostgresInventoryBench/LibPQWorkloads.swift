import CDQIPostgres

/// The workloads written against libpq's C API by hand (``RawLibPQ``): the statements of
/// ``InventorySQL`` prepared once under a name, parameters bound in binary into one reused buffer,
/// results in binary read straight into ``ItemRecord``s. Synchronous, like a context's work.
///
/// Used by one task at a time (the runner runs contenders in sequence).
public final class LibPQWorkloads: PostgresInventoryWorkloads, @unchecked Sendable {
    public let kind = PostgresContenderKind.libpq
    let db: RawLibPQ
    let itemEntity: Int64
    private var parameters = RawLibPQ.Parameters()

    public init(database: PostgresBenchDatabase) throws {
        let url = database.url
        var keywords = [("host", url.host), ("port", String(url.port)), ("sslmode", "disable"), ("client_encoding", "UTF8")]
        if let user = url.user { keywords.append(("user", user)) }
        if let password = url.password { keywords.append(("password", password)) }
        if let name = url.database { keywords.append(("dbname", name)) }
        db = try RawLibPQ(parameters: keywords)
        itemEntity = database.itemEntity
        let sql = InventorySQL(database: database)
        let (int8, text, float8) = (PostgresOID.int8, PostgresOID.text, PostgresOID.float8)
        try db.prepare("allocate", sql.allocateKeys, types: [int8, int8])
        try db.prepare(
            "insert", sql.insert, types: [int8, int8, int8, text, float8, float8, int8, int8, int8, text, int8])
        try db.prepare("fetchAll", sql.fetchAll, types: [])
        try db.prepare("lookup", sql.lookup, types: [text])
        try db.prepare("count", sql.count, types: [text, text])
        try db.prepare("fetchBelow", sql.fetchBelow, types: [text])
        try db.prepare("update", sql.updateChecked, types: [int8, int8, int8, int8])
    }

    public func insert(count: Int) throws -> any ItemRows {
        try db.exec("BEGIN")
        do {
            parameters.removeAll()
            parameters.append(Int64(count))
            parameters.append(itemEntity)
            let keys = try db.execute("allocate", &parameters)
            defer { keys.clear() }
            guard keys.rowCount == 1 else { throw RawLibPQ.Failure(description: "no Z_PRIMARYKEY row for Item") }
            let first = keys.int64(0, 0) - Int64(count) + 1
            for i in 0..<count {
                let item = InventoryData.item(i)
                parameters.removeAll()
                parameters.append(first + Int64(i))
                parameters.append(itemEntity)
                parameters.append(Int64(item.active ? 1 : 0))
                parameters.append(item.code)
                parameters.append(item.createdAt.timeIntervalSinceReferenceDate)
                parameters.append(item.price)
                parameters.append(item.quantity)
                parameters.append(Int64(item.rank))
                parameters.append(Int64(item.score))
                parameters.append(item.title)
                parameters.append(Int64(item.category + 1))
                try db.execute("insert", &parameters).clear()
            }
            try db.exec("COMMIT")
        } catch {
            try? db.exec("ROLLBACK")
            throw error
        }
        return ItemChecksum(count: count)
    }

    public func fetchAll() throws -> any ItemRows {
        parameters.removeAll()
        let result = try db.execute("fetchAll", &parameters)
        defer { result.clear() }
        return Self.items(result)
    }

    public func lookups(codes: [String]) throws -> any ItemRows {
        var found: [ItemRecord] = []
        found.reserveCapacity(codes.count)
        for code in codes {
            parameters.removeAll()
            parameters.append(code)
            let result = try db.execute("lookup", &parameters)
            if result.rowCount == 1 { found.append(result.item(0)) }
            result.clear()
        }
        return found
    }

    public func counts(ranges: [(String, String)]) throws -> any ItemRows {
        var total: Int64 = 0
        for (low, high) in ranges {
            parameters.removeAll()
            parameters.append(low)
            parameters.append(high)
            let result = try db.execute("count", &parameters)
            if result.rowCount == 1 { total += result.int64(0, 0) }
            result.clear()
        }
        return ItemChecksum(count: Int(total))
    }

    public func update(below limitCode: String) throws -> any ItemRows {
        try db.exec("BEGIN")
        do {
            parameters.removeAll()
            parameters.append(limitCode)
            let result = try db.execute("fetchBelow", &parameters)
            let items = Self.items(result)
            result.clear()
            for item in items {
                parameters.removeAll()
                parameters.append(item.quantity + 1)
                parameters.append(item.version + 1)
                parameters.append(item.id)
                parameters.append(item.version)
                let update = try db.execute("update", &parameters)
                let changed = update.affectedRows
                update.clear()
                guard changed == 1 else { throw RawLibPQ.Failure(description: "item \(item.id) changed meanwhile") }
            }
            try db.exec("COMMIT")
            return items
        } catch {
            try? db.exec("ROLLBACK")
            throw error
        }
    }

    public func shutdown() {}

    static func items(_ result: RawLibPQ.Result) -> [ItemRecord] {
        let count = result.rowCount
        var items: [ItemRecord] = []
        items.reserveCapacity(Int(count))
        for row in 0..<count { items.append(result.item(row)) }
        return items
    }
}
