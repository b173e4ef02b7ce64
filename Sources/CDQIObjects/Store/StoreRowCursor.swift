/// The rows of a fetch on a read connection held by one fetch cursor (see ``RowCursorOpening``).
package protocol StoreRowCursor: AnyObject {
    /// Turns up to `limit` more rows into objects with `reader`, appending each to `objects` and whether
    /// it was registered just now to `isNew`; `false` when the rows ran out (the cursor has then ended).
    func readRows(
        upTo limit: Int, with reader: inout RowObjectReader, into objects: inout [ManagedObject], isNew: inout [Bool]
    ) throws -> Bool
    /// Ends the statement and gives the read connection back.
    func end()
}
