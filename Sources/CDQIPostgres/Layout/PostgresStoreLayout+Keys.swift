import CDQIPredicate

extension PostgresStoreLayout {
    /// Takes `count` new primary keys for the hierarchy whose root entity is number
    /// `rootEntityNumber`, and returns them (`Z_MAX` + 1 … `Z_MAX` + `count`).
    ///
    /// One `UPDATE … RETURNING` raises `Z_PRIMARYKEY.Z_MAX` under the row's lock: a concurrent
    /// allocation in any process waits for this one's transaction and continues from its new `Z_MAX`,
    /// so no two ever get the same key. Run inside the save's transaction, the keys are given back if
    /// the save rolls back; outside one, the statement commits on its own.
    public func allocateKeys(
        _ connection: PostgresConnection, rootEntityNumber: Int, count: Int
    ) throws(PostgresStoreError) -> ClosedRange<Int64> {
        guard count >= 1 else {
            throw .postgres(PostgresError(kind: .server, message: "cannot allocate \(count) keys: the count must be at least 1"))
        }
        let result: PostgresResult
        do {
            result = try connection.query(
                "UPDATE \(qualified("Z_PRIMARYKEY")) SET \"Z_MAX\" = \"Z_MAX\" + $1 WHERE \"Z_ENT\" = $2 RETURNING \"Z_MAX\"",
                [.integer(Int64(count)), .integer(Int64(rootEntityNumber))])
        } catch {
            if error.sqlState == "22003" {
                throw .damagedStore(
                    schema: schemaName, reason: "Z_PRIMARYKEY.Z_MAX of entity \(rootEntityNumber) has no \(count) keys left")
            }
            throw .postgres(error)
        }
        let last: Int64?
        do {
            last = result.rowCount == 1 ? try result.int64(row: 0, column: 0) : nil
        } catch {
            throw .postgres(error)
        }
        guard let last else {
            throw .damagedStore(
                schema: schemaName, reason: "entity \(rootEntityNumber) has no Z_PRIMARYKEY row with a Z_MAX")
        }
        let (first, overflow) = last.subtractingReportingOverflow(Int64(count) - 1)
        guard !overflow, first >= 1 else {
            throw .damagedStore(schema: schemaName, reason: "Z_PRIMARYKEY.Z_MAX of entity \(rootEntityNumber) is \(last)")
        }
        return first...last
    }
}
