import CDQIStore
import Foundation
import Testing

/// The SQLite connection layer: configuration, typed binds and reads, the statement cache, errors and
/// transactions.
@Suite("SQLite connection")
struct SQLiteConnectionTests {
    private func temporaryDatabase() throws -> (URL, () -> Void) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (folder.appendingPathComponent("test.sqlite"), { try? FileManager.default.removeItem(at: folder) })
    }

    private func scalar(_ connection: SQLiteConnection, _ sql: String) throws -> String {
        let statement = try connection.prepare(sql)
        defer { statement.reset() }
        #expect(try statement.step())
        return statement.string(0)
    }

    @Test("a file database opens with FULL sync, foreign keys and untrusted schemas, then switches to WAL")
    func configuration() throws {
        let (url, cleanUp) = try temporaryDatabase()
        defer { cleanUp() }
        let connection = try SQLiteConnection(path: url.path)
        #expect(try scalar(connection, "PRAGMA journal_mode") == "delete")
        try connection.enableWriteAheadLog()
        #expect(try scalar(connection, "PRAGMA journal_mode") == "wal")
        #expect(try scalar(connection, "PRAGMA synchronous") == "2")
        #expect(try scalar(connection, "PRAGMA foreign_keys") == "1")
        #expect(try scalar(connection, "PRAGMA trusted_schema") == "0")
    }

    @Test("values round-trip through binds and typed column reads")
    func roundTrip() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.execute("CREATE TABLE t (i INTEGER, d REAL, s TEXT, b BLOB, n INTEGER)")
        let insert = try connection.prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?)")
        let text = "it's \"quoted\"; DROP TABLE t; -- \u{0}nul é 🚀"
        try insert.bind(Int64.min, at: 1)
        try insert.bind(-0.5, at: 2)
        try insert.bind(text, at: 3)
        try insert.bind(Data([0, 1, 2, 255]), at: 4)
        try insert.bindNull(5)
        try insert.run()
        try insert.bind(Int64.max, at: 1)
        try insert.bind("", at: 3)
        try insert.bind(Data(), at: 4)
        try insert.run()

        let select = try connection.prepare("SELECT i, d, s, b, n, typeof(s), typeof(b) FROM t ORDER BY rowid")
        #expect(try select.step())
        #expect(select.int64(0) == Int64.min)
        #expect(select.double(1) == -0.5)
        #expect(select.string(2) == text)
        #expect(select.data(3) == Data([0, 1, 2, 255]))
        #expect(select.isNull(4))
        #expect(try select.step())
        #expect(select.int64(0) == Int64.max)
        #expect(select.isNull(1))  // the reset cleared the binding
        #expect(select.string(2) == "")
        #expect(select.string(5) == "text")  // an empty string is text, not NULL
        #expect(select.string(6) == "blob")  // empty data is a blob, not NULL
        #expect(try !select.step())
        #expect(try connection.prepare("SELECT count(*) FROM t").step())
    }

    @Test("preparing the same SQL again reuses the cached statement, reset")
    func statementCache() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        let first = try connection.prepare("SELECT ?")
        try first.bind(Int64(7), at: 1)
        #expect(try first.step())
        #expect(try first.step() == false)  // run to completion: no longer busy
        let second = try connection.prepare("SELECT ?")
        #expect(first === second)
        #expect(connection.cachedStatementCount == 1)
        #expect(try second.step())
        #expect(second.isNull(0))  // bindings were cleared
    }

    @Test("preparing SQL whose cached statement is still stepping gives a fresh statement, outer loop intact")
    func nestedUseOfTheSameSQL() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.execute("CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1), (2), (3)")
        let sql = "SELECT v FROM t WHERE v >= ? ORDER BY v"
        let outer = try connection.prepare(sql)
        try outer.bind(Int64(1), at: 1)
        var pairs: [[Int64]] = []
        while try outer.step() {
            let value = outer.int64(0)
            // The same SQL inside the loop: rows v >= value. Resetting `outer` here would restart or end
            // the outer loop; a separate statement leaves it where it was.
            let inner = try connection.prepare(sql)
            #expect(inner !== outer)
            try inner.bind(value, at: 1)
            var row = [value]
            while try inner.step() { row.append(inner.int64(0)) }
            inner.reset()
            pairs.append(row)
        }
        // Outer rows 1, 2, 3; for each, the inner query lists the values at least as large.
        #expect(pairs == [[1, 1, 2, 3], [2, 2, 3], [3, 3]])
        #expect(connection.cachedStatementCount == 1)  // the fresh statements were not cached
        outer.reset()
        #expect(try connection.prepare(sql) === outer)  // once idle, the cached one is reused again
    }

    @Test("errors carry the code, the message and the SQL")
    func errors() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        do {
            _ = try connection.prepare("SELEC 1")
            Issue.record("a syntax error was accepted")
        } catch {
            #expect(error.code == 1)
            #expect(error.message.contains("syntax error"))
            #expect(error.sql == "SELEC 1")
        }
        try connection.execute("CREATE TABLE u (k TEXT UNIQUE)")
        let insert = try connection.prepare("INSERT INTO u VALUES (?)")
        try insert.bind("a", at: 1)
        try insert.run()
        try insert.bind("a", at: 1)
        do {
            try insert.run()
            Issue.record("a duplicate was accepted")
        } catch {
            #expect(error.code == 19)  // SQLITE_CONSTRAINT
            #expect(error.extendedCode == 2067)  // SQLITE_CONSTRAINT_UNIQUE
            #expect(error.description.contains("UNIQUE constraint failed: u.k"))
        }
    }

    @Test("a transaction that throws leaves nothing behind")
    func transactionRollback() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.execute("CREATE TABLE t (x INTEGER)")
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try connection.writeTransaction {
                try connection.execute("INSERT INTO t VALUES (1)")
                throw Refused()
            }
        }
        #expect(connection.isAutocommit)
        try connection.writeTransaction { try connection.execute("INSERT INTO t VALUES (2)") }
        #expect(try scalar(connection, "SELECT group_concat(x) FROM t") == "2")
    }

    @Test("a second writer waits for the first one's lock instead of failing")
    func busyTimeout() throws {
        let (url, cleanUp) = try temporaryDatabase()
        defer { cleanUp() }
        let first = try SQLiteConnection(path: url.path)
        try first.execute("CREATE TABLE t (x INTEGER)")
        let impatient = try SQLiteConnection(path: url.path, busyTimeout: 0)
        try first.execute("BEGIN IMMEDIATE")
        #expect(throws: SQLiteError.self) { try impatient.execute("BEGIN IMMEDIATE") }
        try first.execute("COMMIT")
        try impatient.execute("BEGIN IMMEDIATE; INSERT INTO t VALUES (1); COMMIT")
        #expect(try scalar(first, "SELECT count(*) FROM t") == "1")
    }

    @Test("opening something that is not a database is a typed error")
    func notADatabase() throws {
        let (url, cleanUp) = try temporaryDatabase()
        defer { cleanUp() }
        try Data("this is not a database, just text long enough to be read as a header".utf8).write(to: url)
        #expect(throws: SQLiteError.self) {
            let connection = try SQLiteConnection(path: url.path)
            _ = try connection.prepare("SELECT * FROM sqlite_master").step()
        }
    }

    @Test("a statement kept after its connection is gone still runs safely")
    func statementOutlivesConnection() throws {
        var connection: SQLiteConnection? = try SQLiteConnection(path: ":memory:")
        let statement = try connection?.prepare("SELECT 41 + 1")
        connection = nil
        #expect(try statement?.step() == true)
        #expect(statement?.int64(0) == 42)
    }
}
