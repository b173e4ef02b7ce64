import CDQIObjects

extension StoredRow {
    /// Reads the row with primary key `key` of an entity's table, or `nil` when there is none.
    static func read(_ layout: EntityLayout, key: Int64, connection: SQLiteConnection) throws(SQLiteError) -> StoredRow? {
        let statement = try connection.prepare(layout.selectRowSQL)
        defer { statement.reset() }
        try statement.bind(key, at: 1)
        guard try statement.step() else { return nil }
        return decode(layout, from: statement, plan: layout.rowPlan)
    }
}
