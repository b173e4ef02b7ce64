import CDQIObjects

/// The writer connection tells other connections' commits from its own through `PRAGMA data_version`,
/// which SQLite changes for every commit of another connection and never for the connection's own.
extension SQLiteConnection: ExternalWriteProbe {
    package func dataVersion() throws -> Int64 {
        let statement = try prepare("PRAGMA data_version")
        defer { statement.reset() }
        guard try statement.step() else { return 0 }
        return statement.int64(0)
    }

    package func largestKey(of table: String) throws -> Int64 {
        let statement = try prepare("SELECT MAX(Z_PK) FROM \"\(table)\"")
        defer { statement.reset() }
        return try statement.step() && !statement.isNull(0) ? statement.int64(0) : 0
    }

    package func rows(of table: String, above key: Int64) throws -> [(key: Int64, entityNumber: Int64)] {
        let statement = try prepare("SELECT Z_PK, Z_ENT FROM \"\(table)\" WHERE Z_PK > ? ORDER BY Z_PK")
        defer { statement.reset() }
        try statement.bind(key, at: 1)
        var rows: [(key: Int64, entityNumber: Int64)] = []
        while try statement.step() { rows.append((statement.int64(0), statement.int64(1))) }
        return rows
    }
}

/// A save on the SQLite store tells other connections' commits apart on its writer connection.
extension SQLiteSaveTransaction: ExternalWriteProbe {
    func dataVersion() throws -> Int64 { try connection.dataVersion() }
    func largestKey(of table: String) throws -> Int64 { try connection.largestKey(of: table) }
    func rows(of table: String, above key: Int64) throws -> [(key: Int64, entityNumber: Int64)] {
        try connection.rows(of: table, above: key)
    }
}
