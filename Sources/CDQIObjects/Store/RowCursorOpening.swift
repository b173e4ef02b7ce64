/// A store with read connections that one owner may hold for a while (a pool of readers): a fetch
/// cursor then steps its rows on a reader of its own (see ``FetchCursor``). An optional capability of a
/// ``PersistentStore``.
package protocol RowCursorOpening: PersistentStore {
    /// The most read connections of the store (0 when reads share the writer).
    var readerCapacity: Int { get }
    /// The number of read connections open now.
    var openReaderCount: Int { get }
    /// The whole rows (``EntityLayout/tableColumns``) of a request on a read connection held until the
    /// cursor ends, or `nil` when no connection may read beside the writer (in memory, no readers).
    func openRowCursor(_ request: FetchRequest, layout: EntityLayout) throws -> (any StoreRowCursor)?
}
