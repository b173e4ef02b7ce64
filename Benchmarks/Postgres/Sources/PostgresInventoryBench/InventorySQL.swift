/// The statements the hand-written contenders (libpq, postgres-nio, our driver) run, over the tables of
/// one ``PostgresBenchDatabase``: the same SQL for the three, so that only the way of running it differs.
///
/// Comparisons of `ZCODE` are `COLLATE "C"`: Core Data compares strings byte by byte, and the layout's
/// `byCode` index is in that collation (PostgreSQL uses an index only for its own collation).
public struct InventorySQL: Sendable {
    public let allocateKeys: String
    public let insert: String
    public let fetchAll: String
    public let lookup: String
    public let count: String
    public let fetchBelow: String
    public let updateChecked: String

    public init(database: PostgresBenchDatabase) {
        let items = PostgresBenchDatabase.table(database.readSchema, "ZITEM")
        allocateKeys =
            #"UPDATE \#(PostgresBenchDatabase.table(database.insertSchema, "Z_PRIMARYKEY")) "#
            + #"SET "Z_MAX" = "Z_MAX" + $1 WHERE "Z_ENT" = $2 RETURNING "Z_MAX""#
        insert =
            "INSERT INTO \(PostgresBenchDatabase.table(database.insertSchema, "ZITEM")) (\(ItemRecord.columns)) "
            + "VALUES ($1, $2, 1, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
        fetchAll = "SELECT \(ItemRecord.columns) FROM \(items)"
        lookup = #"SELECT \#(ItemRecord.columns) FROM \#(items) WHERE "ZCODE" COLLATE "C" = $1 LIMIT 1"#
        count = #"SELECT COUNT(*) FROM \#(items) WHERE "ZCODE" COLLATE "C" >= $1 AND "ZCODE" COLLATE "C" < $2"#
        fetchBelow = #"SELECT \#(ItemRecord.columns) FROM \#(items) WHERE "ZCODE" COLLATE "C" < $1"#
        updateChecked = #"UPDATE \#(items) SET "ZQUANTITY" = $1, "Z_OPT" = $2 WHERE "Z_PK" = $3 AND "Z_OPT" = $4"#
    }
}
