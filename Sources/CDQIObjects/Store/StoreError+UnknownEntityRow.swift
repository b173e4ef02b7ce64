extension StoreError {
    /// The error for a row (`Z_ENT`, `Z_PK` first) whose `Z_ENT` is no entity number of the model:
    /// the store is damaged, and the message names the table, the row's key and the value.
    package static func unknownEntityRow<Row: StoreRow>(_ row: Row, path: String) -> StoreError {
        let table = row.tableName(ofColumn: 0) ?? "its table"
        return .damagedStore(
            path: path,
            reason: "the row Z_PK \(row.int64(1)) of \(table) has Z_ENT \(row.describeValue(0)), which is no entity of the model "
                + "(run 'cdqi check' on the store)")
    }
}
