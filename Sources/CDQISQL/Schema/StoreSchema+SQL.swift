extension StoreSchema {
    /// The bookkeeping tables every Core Data store has, exactly as Core Data declares them.
    public static let bookkeepingStatements = [
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
        "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
    ]

    /// The statements that create the entity tables, join tables and indexes, in Core Data's exact
    /// spelling (`CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, … )`).
    /// Every name comes from the model and is used as an identifier only; no value is ever part of it.
    public var createStatements: [String] {
        var statements: [String] = []
        for table in tables {
            let columns =
                ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
                + table.columns.map { "\($0.name) \($0.type)" }
            statements.append("CREATE TABLE \(table.name) ( \(columns.joined(separator: ", ")) )")
        }
        for join in joinTables {
            var columns = ["\(join.sourceColumn) INTEGER", "\(join.destinationColumn) INTEGER"]
            if let order = join.orderColumn { columns.append("\(order) INTEGER") }
            columns.append("PRIMARY KEY (\(join.sourceColumn), \(join.destinationColumn))")
            statements.append("CREATE TABLE \(join.name) ( \(columns.joined(separator: ", ")) )")
        }
        for index in indexes {
            let kind = index.isUnique ? "CREATE UNIQUE INDEX" : "CREATE INDEX"
            statements.append("\(kind) \(index.name) ON \(index.table) (\(index.terms.joined(separator: ", ")))")
        }
        return statements
    }
}
