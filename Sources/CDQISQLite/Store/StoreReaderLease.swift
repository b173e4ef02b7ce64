import CDQIObjects

/// A read-only connection held by one owner for as long as it needs it (a ``FetchCursor`` holds one
/// for its life), from ``StoreReaderPool/lease()``: a free reader of the pool or a new connection,
/// taken back by the pool when the lease ends (or closed, when the pool is full).
///
/// The holder must leave no statement of the reader stepping when it lets the lease go (reset it
/// first), so that the reader goes back to the pool with no read transaction open.
package final class StoreReaderLease {
    /// The connection, for the holder's sole use.
    let reader: SQLiteStore
    /// The pool that takes the reader back.
    private let pool: StoreReaderPool
    /// The pool's logger setting the reader traces with (see ``StoreReaderPool/logSQL(to:)``).
    private let loggerVersion: Int

    init(reader: SQLiteStore, loggerVersion: Int, pool: StoreReaderPool) {
        self.reader = reader
        self.loggerVersion = loggerVersion
        self.pool = pool
    }

    deinit {
        pool.takeBack(reader, loggerVersion: loggerVersion)
    }
}
