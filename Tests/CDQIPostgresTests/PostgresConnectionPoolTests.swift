import CDQIPostgres
import CDQIPredicate
import Foundation
import Synchronization
import Testing

@Suite("PostgresConnectionPool", .enabled(if: TestDatabase.isAvailable, "CDQI_POSTGRES_URL is not set"))
struct PostgresConnectionPoolTests {
    @Test("six threads share two connections, never more")
    func sharesCapacity() throws {
        let pool = PostgresConnectionPool(url: try TestDatabase.url(), capacity: 2)
        defer { pool.close() }
        let backends = Mutex<Set<Int64>>([])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            do {
                for _ in 0..<5 {
                    let pid = try pool.withConnection { connection in
                        try connection.query("SELECT pg_backend_pid()::bigint").int64(row: 0, column: 0)
                    }
                    if let pid { backends.withLock { _ = $0.insert(pid) } }
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let distinct = backends.withLock { $0.count }
        #expect(distinct >= 1 && distinct <= 2)
        #expect(pool.openCount <= 2)
    }

    @Test("a checkout waits at most its timeout when every connection is in use")
    func timeout() throws {
        let pool = PostgresConnectionPool(url: try TestDatabase.url(), capacity: 2)
        defer { pool.close() }
        try pool.withConnection { _ in
            try pool.withConnection { _ in
                let started = Date()
                #expect {
                    try pool.withConnection(timeout: 0.2) { _ in }
                } throws: { error in
                    (error as? PostgresError)?.kind == .poolTimeout
                }
                #expect(Date().timeIntervalSince(started) >= 0.2)
            }
        }
        // Both came back: a checkout succeeds at once.
        #expect(try pool.withConnection(timeout: 0) { try $0.query("SELECT 1").value(row: 0, column: 0) } == .integer(1))
    }

    @Test("a connection given back inside a transaction is rolled back before reuse")
    func rollsBackLeftoverTransaction() throws {
        try TestDatabase.withScratchSchema { connection, schema in
            try connection.execute("CREATE TABLE t (k bigint)")
            let pool = PostgresConnectionPool(url: try TestDatabase.url(schema: schema), capacity: 1)
            defer { pool.close() }
            try pool.withConnection { pooled in
                try pooled.execute("BEGIN")
                try pooled.query("INSERT INTO t VALUES ($1)", [.integer(1)])
            }
            let (inTransaction, count) = try pool.withConnection { pooled in
                (pooled.isInTransaction, try pooled.query("SELECT count(*)::bigint FROM t").value(row: 0, column: 0))
            }
            #expect(!inTransaction)
            #expect(count == .integer(0))
        }
    }

    @Test("a pool whose server refuses the connection throws the connection error and leaves no slot taken")
    func connectionFailure() throws {
        var url = try TestDatabase.url()
        url.password = "wrong"
        let pool = PostgresConnectionPool(url: url, capacity: 1)
        #expect {
            try pool.withConnection { _ in }
        } throws: { error in
            (error as? PostgresError)?.kind == .connectionFailed
        }
        #expect(pool.openCount == 0)
    }
}
