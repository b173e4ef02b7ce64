import CDQIObjects

/// The rows of a fetch cursor on a read connection leased from the pool (see ``StoreReaderLease``): the
/// statement steps on that reader only, so the cursor sees the store as it was when it started (WAL's
/// snapshot isolation) and never holds the writer between batches.
final class SQLiteRowCursor: StoreRowCursor {
    /// Released when the rows end, after the statement is reset: the reader goes back to the pool with
    /// no read transaction open.
    private var lease: StoreReaderLease?
    private let statement: SQLiteStatement

    init(lease: StoreReaderLease, request: FetchRequest, layout: EntityLayout) throws {
        let (sql, bindings) = try lease.reader.rowsSQL(for: request, columns: layout.tableColumnsSQL)
        // Not from the reader's statement cache: the statement ends with the cursor.
        let statement = try lease.reader.connection.prepareUncached(sql)
        for (offset, value) in bindings.enumerated() {
            try statement.bind(value, at: offset + 1)
        }
        self.statement = statement
        self.lease = lease
    }

    deinit {
        statement.reset()
    }

    func readRows(
        upTo limit: Int, with reader: inout RowObjectReader, into objects: inout [ManagedObject], isNew: inout [Bool]
    ) throws -> Bool {
        while objects.count < limit {
            guard try statement.step() else { return false }
            let (object, new) = try reader.object(at: statement)
            isNew.append(new)
            // Moved into the array: a copy counted a reference more, released at once, per row.
            objects.append(consume object)
        }
        return true
    }

    func end() {
        statement.reset()
        lease = nil
    }
}
