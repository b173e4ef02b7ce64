import CDQIStore
import CSQLite
import Foundation
import Testing

/// The process-wide setting a connection makes before SQLite initializes: memory statistics off, so
/// that connections on different threads do not take turns on SQLite's allocation-counting mutex.
@Suite("SQLite process settings")
struct SQLiteProcessSettingsTests {
    @Test("the first connection turns SQLite's memory statistics off: allocations are no longer counted")
    func memoryStatisticsOff() throws {
        // This test process uses SQLite only through SQLiteConnection, whose initializer applies the
        // setting before opening: so no test can have initialized SQLite with the statistics on.
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.execute("CREATE TABLE t (s TEXT)")
        let insert = try connection.prepare("INSERT INTO t VALUES (?)")
        for i in 0..<200 {
            try insert.bind(String(repeating: "x", count: 1_000 + i), at: 1)
            _ = try insert.step()
            insert.reset()
        }
        // With statistics on, SQLite counts what it holds (the connection, its schema, its pages, the
        // statement): well above zero. Off, the count is never updated, and SQLite's own figure stays 0.
        #expect(sqlite3_memory_used() == 0)
        #expect(SQLiteProcessSettings.apply())
        // SQLite accepts configuration only before it initializes; it is initialized now.
        #expect(cdqi_sqlite3_disable_memory_statistics() == SQLITE_MISUSE)
    }
}
