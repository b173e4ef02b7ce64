import CSQLite

/// The process-wide SQLite setting CDQI makes before it opens its first connection: SQLite's memory
/// statistics off.
///
/// With memory statistics on (`SQLITE_CONFIG_MEMSTATUS`, the default of most builds, Debian's
/// included, whose SQLite also has no lookaside memory), every allocation and free SQLite makes, on
/// any connection, takes one process-wide mutex to count it. Connections that share nothing else then
/// take turns on that mutex: a save inserting a thousand rows makes every reader wait for it, and a
/// waiting thread sleeps and is woken, which is what a slow read is made of. Measured with the
/// benchmark's W12 (three readers looking items up while a writer saves 1,000-object batches, two
/// cores): the readers' p99 with the writer went from 2.4–3× to below their p99 without it, for this
/// package's readers and the raw C API's alike, once the statistics were off.
///
/// The statistics only feed `sqlite3_memory_used()`, `sqlite3_memory_highwater()` and the soft heap
/// limit, none of which CDQI uses. SQLite accepts the setting only before it initializes, that is
/// before the process's first connection: ``SQLiteConnection`` applies it before opening one. A
/// process that uses SQLite elsewhere first (another library, or a connection of its own) should call
/// ``apply()`` at the start of `main`, before any other thread uses SQLite; otherwise the setting
/// does not take effect and everything works as before, only with the shared mutex.
public enum SQLiteProcessSettings {
    /// Turns SQLite's memory statistics off for this process, once; later calls return the first
    /// call's result.
    ///
    /// SQLite's configuration is not thread-safe: call this before other threads use SQLite (CDQI's
    /// own first call happens as its first connection opens).
    /// - Returns: whether the setting took effect (`false` when SQLite had already been initialized).
    @discardableResult
    public static func apply() -> Bool { applied }

    /// The one call to SQLite, made the first time it is asked for (Swift runs a static's initializer
    /// once, thread-safely).
    private static let applied: Bool = cdqi_sqlite3_disable_memory_statistics() == SQLITE_OK
}
