import CDQIObjects
import CDQIPredicate

/// A save's writes on one PostgreSQL connection, inside its transaction. Statements are the driver's
/// prepared ones (by SQL text), so a save of many objects prepares each shape once per connection.
final class PostgresSaveTransaction: SaveTransaction {
    private let connection: PostgresConnection
    private let layout: PostgresStoreLayout
    private let location: String
    private let dialect = SQLDialect.postgres
    /// The INSERT of each entity's rows and the UPDATE of each shape of change, written once per save.
    private var insertSQL: [ObjectIdentifier: String] = [:]
    private var updateSQL: [UpdateShape: String] = [:]

    private struct UpdateShape: Hashable {
        let layout: ObjectIdentifier
        let changes: [Int]
    }

    init(connection: PostgresConnection, layout: PostgresStoreLayout, location: String) {
        self.connection = connection
        self.layout = layout
        self.location = location
    }

    private func id(_ name: String) -> String { dialect.identifier(name) }

    /// `$first, $first+1, …`: `count` placeholders.
    private func placeholders(_ count: Int, from first: Int = 1) -> String {
        (0..<count).map { "$\(first + $0)" }.joined(separator: ", ")
    }

    // MARK: Keys

    func allocateKeys(root: Int, rootName: String, tableName: String, count: Int) throws -> ClosedRange<Int64> {
        let keys = try layout.allocateKeys(connection, rootEntityNumber: root, count: count)
        // Keys at or below Z_MAX are taken; a row above it means the bookkeeping lost track.
        let largest = try connection.query("SELECT MAX(\"Z_PK\") FROM \(id(tableName))")
        if let key = try largest.int64(row: 0, column: 0), key >= keys.lowerBound {
            throw StoreError.damagedStore(
                path: location,
                reason: "Z_PRIMARYKEY.Z_MAX of \(rootName) (Z_ENT \(root)) is \(keys.lowerBound - 1), below the largest Z_PK "
                    + "\(key) of \(tableName): new keys would collide")
        }
        return keys
    }

    // MARK: Rows

    func insertRow(of object: ManagedObject, key: Int64) throws {
        var parameters = StoredValueParameters()
        try SaveWriter.bindInsert(of: object, key: key, to: &parameters)
        try connection.query(insertStatement(for: object.entity), parameters.values)
    }

    private func insertStatement(for entity: EntityLayout) -> String {
        if let sql = insertSQL[ObjectIdentifier(entity)] { return sql }
        let columns = entity.insertColumns
        let sql =
            "INSERT INTO \(id(entity.tableName)) (\(columns.map(id).joined(separator: ", "))) VALUES (\(placeholders(columns.count)))"
        insertSQL[ObjectIdentifier(entity)] = sql
        return sql
    }

    func updateRow(
        of entity: EntityLayout, key: Int64, changes: RowChanges, attributeValues: [StoredValue], expected: Int64
    ) throws -> Bool {
        var parameters = StoredValueParameters()
        let position = try changes.bind(to: &parameters, layout: entity, attributeValues: attributeValues)
        try parameters.bind(.integer(expected + 1), at: position)
        try parameters.bind(.integer(key), at: position + 1)
        try parameters.bind(.integer(expected), at: position + 2)
        let shape = UpdateShape(layout: ObjectIdentifier(entity), changes: changes.shape)
        let sql: String
        if let known = updateSQL[shape] {
            sql = known
        } else {
            let assignments = (changes.columns(of: entity) + ["Z_OPT"]).enumerated().map { "\(id($1)) = $\($0 + 1)" }
            sql =
                "UPDATE \(id(entity.tableName)) SET \(assignments.joined(separator: ", ")) WHERE \"Z_PK\" = $\(position + 1) "
                + "AND \"Z_OPT\" = $\(position + 2)"
            updateSQL[shape] = sql
        }
        return try connection.query(sql, parameters.values).affectedRowCount == 1
    }

    func deleteRow(of entity: EntityLayout, key: Int64, expected: Int64?) throws -> Bool {
        if let expected {
            let result = try connection.query(
                "DELETE FROM \(id(entity.tableName)) WHERE \"Z_PK\" = $1 AND \"Z_OPT\" = $2", [.integer(key), .integer(expected)])
            guard result.affectedRowCount == 1 else { return false }
        } else {
            try connection.query("DELETE FROM \(id(entity.tableName)) WHERE \"Z_PK\" = $1", [.integer(key)])
        }
        for relationship in entity.relationships {
            guard let join = relationship.join else { continue }
            try connection.query("DELETE FROM \(id(join.table.name)) WHERE \(id(join.ownColumn)) = $1", [.integer(key)])
        }
        return true
    }

    /// The rows are locked (`FOR UPDATE`, in key order) until the save ends: under READ COMMITTED, another
    /// process could otherwise commit a change between this read and the save's `UPDATE … WHERE Z_OPT = …`,
    /// and a merge policy that resolved the conflict it saw would meet a new one it cannot resolve.
    func storedVersions(table: String, keys: [Int64]) throws -> [Int64: Int64] {
        let result = try connection.query(
            "SELECT \"Z_PK\", \"Z_OPT\" FROM \(id(table)) WHERE \"Z_PK\" IN (\(placeholders(keys.count))) "
                + "ORDER BY \"Z_PK\" FOR UPDATE",
            keys.map(StoredValue.integer))
        var stored: [Int64: Int64] = [:]
        for row in 0..<result.rowCount {
            if let key = try result.int64(row: row, column: 0) { stored[key] = try result.int64(row: row, column: 1) ?? 0 }
        }
        return stored
    }

    func readRow(of entity: EntityLayout, key: Int64) throws -> StoredRow? {
        try PostgresStore.readRow(of: entity, key: key, on: connection)
    }

    func rowsMatching(
        table: String, numbers: ClosedRange<Int>, columns: [String], values: [StoredValue]
    ) throws -> [(entityNumber: Int, key: Int64)] {
        let conditions = columns.enumerated().map { "\(id($1)) = $\($0 + 3)" }
        let result = try connection.query(
            "SELECT \"Z_ENT\", \"Z_PK\" FROM \(id(table)) WHERE \"Z_ENT\" BETWEEN $1 AND $2 AND "
                + conditions.joined(separator: " AND "),
            [.integer(Int64(numbers.lowerBound)), .integer(Int64(numbers.upperBound))] + values)
        return try (0..<result.rowCount).map { row in
            (Int(try result.int64(row: row, column: 0) ?? 0), try result.int64(row: row, column: 1) ?? 0)
        }
    }

    // MARK: Relationships

    func insertJoinRow(_ table: JoinTable, source: Int64, destination: Int64) throws {
        try connection.query(
            "INSERT INTO \(id(table.name)) (\(id(table.sourceColumn)), \(id(table.destinationColumn))) VALUES ($1, $2) "
                + "ON CONFLICT DO NOTHING", [.integer(source), .integer(destination)])
    }

    func deleteJoinRow(_ table: JoinTable, source: Int64, destination: Int64) throws {
        try connection.query(
            "DELETE FROM \(id(table.name)) WHERE \(id(table.sourceColumn)) = $1 AND \(id(table.destinationColumn)) = $2",
            [.integer(source), .integer(destination)])
    }

    func setOrderKey(table: String, column: String, value: Int64, keyColumns: [String], keys: [Int64]) throws {
        let conditions = keyColumns.enumerated().map { "\(id($1)) = $\($0 + 2)" }
        try connection.query(
            "UPDATE \(id(table)) SET \(id(column)) = $1 WHERE " + conditions.joined(separator: " AND "),
            [.integer(value)] + keys.map(StoredValue.integer))
    }
}
