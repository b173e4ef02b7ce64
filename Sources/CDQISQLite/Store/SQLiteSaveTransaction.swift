import CDQIObjects
import CDQIPredicate

/// A save's writes on the SQLite store's writer, inside its transaction: each statement prepared once
/// per save and shape (inserts come in runs of one entity; updates of many objects mostly change the
/// same columns).
final class SQLiteSaveTransaction: SaveTransaction {
    let connection: SQLiteConnection
    private let schema: StoreSchema
    /// Prepared INSERTs by entity layout, for this save.
    private var insertStatements: [ObjectIdentifier: SQLiteStatement] = [:]
    /// The INSERT used last (inserts come in runs of one entity).
    private var lastInsert: (layout: ObjectIdentifier, statement: SQLiteStatement)?
    /// Prepared UPDATEs by entity layout and changed columns, for this save.
    private var updateStatements: [UpdateShape: SQLiteStatement] = [:]
    /// The UPDATE used last and its shape: comparing with it (in place: copying the shape out retained
    /// it) costs less than hashing.
    private var lastUpdate: (statement: SQLiteStatement, shape: UpdateShape)?

    private struct UpdateShape: Hashable {
        let layout: ObjectIdentifier
        /// ``RowChanges/shape``.
        let changes: [Int]
    }

    init(connection: SQLiteConnection, schema: StoreSchema) {
        self.connection = connection
        self.schema = schema
    }

    // MARK: Keys

    /// Gives the next keys of the hierarchy's `Z_PRIMARYKEY.Z_MAX`. A `Z_MAX` that is missing, not an
    /// integer, or too large for the keys needed is a damaged store (Core Data never writes one),
    /// reported as such rather than trapping or colliding with existing rows.
    func allocateKeys(root: Int, rootName: String, tableName: String, count: Int) throws -> ClosedRange<Int64> {
        func damaged(_ problem: String) -> ContextError {
            .store(.damagedStore(path: connection.path, reason: "Z_PRIMARYKEY.Z_MAX of \(rootName) (Z_ENT \(root)) \(problem)"))
        }
        let select = try connection.prepare("SELECT Z_MAX, typeof(Z_MAX) FROM Z_PRIMARYKEY WHERE Z_ENT = ?")
        try select.bind(Int64(root), at: 1)
        guard try select.step() else {
            select.reset()
            throw damaged("is missing: the table has no row for the entity")
        }
        let type = select.string(1)
        guard type == "integer" else {
            let shown = select.isNull(0) ? "NULL" : "'\(select.string(0))'"
            select.reset()
            throw damaged("is \(shown) (\(type)), not an integer")
        }
        let maximum = select.int64(0)
        select.reset()
        guard maximum >= 0 else { throw damaged("is negative (\(maximum))") }
        // Keys at or below Z_MAX are taken; a row above it means the bookkeeping lost track (one
        // indexed lookup: Z_PK is the table's primary key).
        let largest = try connection.prepare("SELECT MAX(Z_PK) FROM \(tableName)")
        if try largest.step(), !largest.isNull(0), largest.int64(0) > maximum {
            let key = largest.int64(0)
            largest.reset()
            throw damaged("is \(maximum), below the largest Z_PK \(key) of \(tableName): new keys would collide")
        }
        largest.reset()
        let (last, overflow) = maximum.addingReportingOverflow(Int64(count))
        if overflow || count < 1 {
            throw damaged("is \(maximum): no keys left for \(count) new object\(count == 1 ? "" : "s")")
        }
        let update = try connection.prepare("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?")
        try update.bind(last, at: 1)
        try update.bind(Int64(root), at: 2)
        try update.run()
        return (maximum + 1)...last
    }

    // MARK: Rows

    func insertRow(of object: ManagedObject, key: Int64) throws {
        // One statement per entity for the whole save: every stored column, in layout order.
        var statement = try insertStatement(for: object.entity)
        try SaveWriter.bindInsert(of: object, key: key, to: &statement)
        try statement.run()
    }

    /// The INSERT of an entity's rows, prepared once per save.
    private func insertStatement(for layout: EntityLayout) throws -> SQLiteStatement {
        if let last = lastInsert, last.layout == ObjectIdentifier(layout) { return last.statement }
        if let statement = insertStatements[ObjectIdentifier(layout)] {
            lastInsert = (ObjectIdentifier(layout), statement)
            return statement
        }
        let columns = layout.insertColumns
        let sql =
            "INSERT INTO \(layout.tableName) (\(columns.joined(separator: ", "))) VALUES ("
            + SQLText.placeholders(columns.count) + ")"
        let statement = try connection.prepare(sql)
        insertStatements[ObjectIdentifier(layout)] = statement
        lastInsert = (ObjectIdentifier(layout), statement)
        return statement
    }

    func updateRow(
        of layout: EntityLayout, key: Int64, changes: RowChanges, attributeValues: [StoredValue], expected: Int64
    ) throws -> Bool {
        // Bound in place (a second reference to bind through cost a retain and release per row).
        var statement = try updateStatement(for: layout, changes: changes)
        let position = try changes.bind(to: &statement, layout: layout, attributeValues: attributeValues)
        try statement.bind(expected + 1, at: position)
        try statement.bind(key, at: position + 1)
        try statement.bind(expected, at: position + 2)
        try statement.run()
        return connection.changes == 1
    }

    /// The UPDATE that writes `changes` to a row of `layout` (and the version), prepared once per save
    /// and shape.
    private func updateStatement(for layout: EntityLayout, changes: RowChanges) throws -> SQLiteStatement {
        if lastUpdate?.shape.layout == ObjectIdentifier(layout), lastUpdate?.shape.changes == changes.shape,
            let statement = lastUpdate?.statement
        {
            return statement
        }
        let shape = UpdateShape(layout: ObjectIdentifier(layout), changes: changes.shape)
        if let statement = updateStatements[shape] {
            lastUpdate = (statement, shape)
            return statement
        }
        let sql =
            "UPDATE \(layout.tableName) SET "
            + (changes.columns(of: layout) + ["Z_OPT"]).map { "\($0) = ?" }.joined(separator: ", ")
            + " WHERE Z_PK = ? AND Z_OPT = ?"
        let statement = try connection.prepare(sql)
        updateStatements[shape] = statement
        lastUpdate = (statement, shape)
        return statement
    }

    func deleteRow(of layout: EntityLayout, key: Int64, expected: Int64?) throws -> Bool {
        if let expected {
            try run("DELETE FROM \(layout.tableName) WHERE Z_PK = ? AND Z_OPT = ?", [.integer(key), .integer(expected)])
            guard connection.changes == 1 else { return false }
        } else {
            try run("DELETE FROM \(layout.tableName) WHERE Z_PK = ?", [.integer(key)])
        }
        for relationship in layout.relationships {
            guard let join = relationship.join else { continue }
            try run("DELETE FROM \(join.table.name) WHERE \(join.ownColumn) = ?", [.integer(key)])
        }
        return true
    }

    func storedVersions(table: String, keys: [Int64]) throws -> [Int64: Int64] {
        let statement = try connection.prepare("SELECT Z_PK, Z_OPT FROM \(table) WHERE Z_PK IN (\(SQLText.placeholders(keys.count)))")
        defer { statement.reset() }
        for (offset, key) in keys.enumerated() { try statement.bind(key, at: offset + 1) }
        var stored: [Int64: Int64] = [:]
        while try statement.step() { stored[statement.int64(0)] = statement.int64(1) }
        return stored
    }

    func readRow(of layout: EntityLayout, key: Int64) throws -> StoredRow? {
        try StoredRow.read(layout, key: key, connection: connection)
    }

    func rowsMatching(
        table: String, numbers: ClosedRange<Int>, columns: [String], values: [StoredValue]
    ) throws -> [(entityNumber: Int, key: Int64)] {
        let sql =
            "SELECT Z_ENT, Z_PK FROM \(table) WHERE Z_ENT BETWEEN \(numbers.lowerBound) AND \(numbers.upperBound) AND "
            + columns.map { "\($0) = ?" }.joined(separator: " AND ")
        let statement = try connection.prepare(sql)
        defer { statement.reset() }
        for (position, value) in values.enumerated() { try statement.bind(value, at: position + 1) }
        var rows: [(entityNumber: Int, key: Int64)] = []
        while try statement.step() { rows.append((Int(statement.int64(0)), statement.int64(1))) }
        return rows
    }

    // MARK: Relationships

    func insertJoinRow(_ table: JoinTable, source: Int64, destination: Int64) throws {
        try run(
            "INSERT OR IGNORE INTO \(table.name) (\(table.sourceColumn), \(table.destinationColumn)) VALUES (?, ?)",
            [.integer(source), .integer(destination)])
    }

    func deleteJoinRow(_ table: JoinTable, source: Int64, destination: Int64) throws {
        try run(
            "DELETE FROM \(table.name) WHERE \(table.sourceColumn) = ? AND \(table.destinationColumn) = ?",
            [.integer(source), .integer(destination)])
    }

    func setOrderKey(table: String, column: String, value: Int64, keyColumns: [String], keys: [Int64]) throws {
        try run(
            "UPDATE \(table) SET \(column) = ? WHERE " + keyColumns.map { "\($0) = ?" }.joined(separator: " AND "),
            [.integer(value)] + keys.map(StoredValue.integer))
    }

    private func run(_ sql: String, _ values: [StoredValue]) throws {
        let statement = try connection.prepare(sql)
        try statement.bind(values)
        try statement.run()
    }
}
