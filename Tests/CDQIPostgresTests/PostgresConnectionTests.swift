import CDQIPostgres
import CDQIPredicate
import Foundation
import Testing

@Suite("PostgresConnection", .enabled(if: TestDatabase.isAvailable, "CDQI_POSTGRES_URL is not set"))
struct PostgresConnectionTests {
    /// Sends `value` as `$1` and reads back what the server returns for `SELECT $1`.
    private func roundTrip(_ value: StoredValue, _ connection: PostgresConnection) throws -> StoredValue {
        try connection.query("SELECT $1", [value]).value(row: 0, column: 0)
    }

    @Test("every stored value round-trips through a bound parameter as Core Data stores it")
    func roundTrips() throws {
        let connection = try PostgresConnection(url: TestDatabase.url())
        #expect(try roundTrip(.integer(.max), connection) == .integer(9_223_372_036_854_775_807))
        #expect(try roundTrip(.integer(.min), connection) == .integer(-9_223_372_036_854_775_808))
        #expect(try roundTrip(.integer(0), connection) == .integer(0))
        #expect(try roundTrip(.double(3.25), connection) == .double(3.25))
        #expect(try roundTrip(.double(-1e-300), connection) == .double(-1e-300))
        #expect(try roundTrip(.double(.infinity), connection) == .double(.infinity))
        #expect(
            try roundTrip(.string("héllo ✓ 'quoted' \"x\"; DROP TABLE t"), connection)
                == .string("héllo ✓ 'quoted' \"x\"; DROP TABLE t"))
        #expect(try roundTrip(.string(""), connection) == .string(""))
        #expect(try roundTrip(.data(Data([0, 1, 2, 255])), connection) == .data(Data([0, 1, 2, 255])))
        #expect(try roundTrip(.data(Data()), connection) == .data(Data()))
        #expect(try roundTrip(.null, connection) == .null)
        // Stored as Core Data stores them: booleans as 0/1, dates as seconds since 2001, decimals as
        // their nearest double, UUIDs as their 16 bytes, URIs as text.
        #expect(try roundTrip(.bool(true), connection) == .integer(1))
        #expect(try roundTrip(.bool(false), connection) == .integer(0))
        #expect(try roundTrip(.date(secondsSinceReferenceDate: 123.5), connection) == .double(123.5))
        #expect(try roundTrip(.decimal(Decimal(string: "0.07") ?? 0), connection) == .double(0.07))
        let uuid = UUID(uuidString: "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11") ?? UUID()
        #expect(
            try roundTrip(.uuid(uuid), connection)
                == .data(Data([0xA0, 0xEE, 0xBC, 0x99, 0x9C, 0x0B, 0x4E, 0xF8, 0xBB, 0x6D, 0x6B, 0xB9, 0xBD, 0x38, 0x0A, 0x11])))
        if let url = URL(string: "https://example.org/a?b=c") {
            #expect(try roundTrip(.uri(url), connection) == .string("https://example.org/a?b=c"))
        }
    }

    @Test("values of the server's own types are read")
    func serverTypes() throws {
        let connection = try PostgresConnection(url: TestDatabase.url())
        let result = try connection.query(
            """
            SELECT true, false, 42::int2, -42::int4, 1.5::float4, 12345.678::numeric, -0.0001::numeric,
                   100000000000000000000::numeric, 0::numeric, '2001-01-01 00:01:00+00'::timestamptz,
                   '2000-01-01 00:00:00.5'::timestamp, '2000-12-31'::date,
                   'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid, '{"a":1}'::jsonb, 'x'::varchar, 'y'::char(3),
                   NULL::bigint, 'infinity'::timestamptz, 0.000000012::numeric
            """)
        let expected: [StoredValue] = [
            .bool(true), .bool(false), .integer(42), .integer(-42), .double(1.5),
            .decimal(Decimal(string: "12345.678") ?? 0), .decimal(Decimal(string: "-0.0001") ?? 0),
            .decimal(Decimal(string: "100000000000000000000") ?? 0), .decimal(0),
            // 60 s after 2001-01-01; half a second after 2000-01-01, which is 366 days before it.
            .date(secondsSinceReferenceDate: 60), .date(secondsSinceReferenceDate: -31_622_399.5),
            .date(secondsSinceReferenceDate: -86_400),
            .uuid(UUID(uuidString: "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11") ?? UUID()),
            .string(#"{"a": 1}"#), .string("x"), .string("y  "), .null, .date(secondsSinceReferenceDate: .infinity),
            // Base-10000 groups 0000 0001 2000 after the point: weight -2.
            .decimal(Decimal(string: "0.000000012") ?? 0),
        ]
        #expect(result.rowCount == 1)
        #expect(try result.row(0) == expected)
    }

    @Test("rows, column names and affected-row counts")
    func rowsAndCounts() throws {
        try TestDatabase.withScratchSchema { connection, _ in
            try connection.execute("CREATE TABLE people (id bigint PRIMARY KEY, name text)")
            let insert = "INSERT INTO people (id, name) VALUES ($1, $2)"
            for (id, name) in [(1, "Ann"), (2, "Bo"), (3, "Cy")] {
                #expect(try connection.query(insert, [.integer(Int64(id)), .string(name)]).affectedRowCount == 1)
            }
            #expect(connection.cachedStatementCount == 1)
            let updated = try connection.query("UPDATE people SET name = upper(name) WHERE id >= $1", [.integer(2)])
            #expect(updated.affectedRowCount == 2)
            let result = try connection.query("SELECT id, name AS who FROM people ORDER BY id")
            #expect(result.columnNames == ["id", "who"])
            #expect(try result.rows() == [[.integer(1), .string("Ann")], [.integer(2), .string("BO")], [.integer(3), .string("CY")]])
            #expect(try result.int64(row: 2, column: 0) == 3)
            #expect(try result.string(row: 0, column: 1) == "Ann")
            #expect(throws: PostgresError.self) { try result.value(row: 3, column: 0) }
            #expect(throws: PostgresError.self) { try result.int64(row: 0, column: 1) }
        }
    }

    @Test("a statement is prepared once per parameter types")
    func statementCache() throws {
        let connection = try PostgresConnection(url: TestDatabase.url())
        _ = try connection.query("SELECT $1::text IS NULL", [.string("a")])
        _ = try connection.query("SELECT $1::text IS NULL", [.string("b")])
        #expect(connection.cachedStatementCount == 1)
        #expect(try connection.query("SELECT $1::text IS NULL", [.null]).value(row: 0, column: 0) == .bool(true))
        #expect(connection.cachedStatementCount == 2)
        #expect(try connection.query("SELECT $1::text IS NULL", [.string("c")]).value(row: 0, column: 0) == .bool(false))
        #expect(connection.cachedStatementCount == 2)
    }

    @Test("a unique violation is typed, with its SQLSTATE and constraint")
    func uniqueViolation() throws {
        try TestDatabase.withScratchSchema { connection, _ in
            try connection.execute("CREATE TABLE keys (k bigint PRIMARY KEY)")
            try connection.query("INSERT INTO keys VALUES ($1)", [.integer(7)])
            do throws(PostgresError) {
                try connection.query("INSERT INTO keys VALUES ($1)", [.integer(7)])
                Issue.record("the duplicate was inserted")
            } catch {
                #expect(error.kind == .uniqueViolation)
                #expect(error.sqlState == "23505")
                #expect(error.constraint == "keys_pkey")
                #expect(error.table == "keys")
                #expect(error.detail == "Key (k)=(7) already exists.")
                #expect(!error.isRetryable)
            }
        }
    }

    @Test("an undefined table and a syntax error are typed")
    func undefinedTableAndSyntax() throws {
        let connection = try PostgresConnection(url: TestDatabase.url())
        do {
            try connection.query(#"SELECT * FROM "NO_SUCH_TABLE""#)
            Issue.record("the query ran")
        } catch {
            #expect(error.kind == .undefinedTable)
            #expect(error.sqlState == "42P01")
            #expect(error.message == #"relation "NO_SUCH_TABLE" does not exist"#)
            #expect(error.statement == #"SELECT * FROM "NO_SUCH_TABLE""#)
        }
        #expect {
            try connection.execute("SELEC 1")
        } throws: { error in
            (error as? PostgresError)?.kind == .syntaxError && (error as? PostgresError)?.sqlState == "42601"
        }
        // The connection is still usable after errors.
        #expect(try connection.query("SELECT 1").value(row: 0, column: 0) == .integer(1))
    }

    @Test("a wrong password, a closed port and a missing database fail to connect, typed")
    func connectionFailures() throws {
        var wrongPassword = try TestDatabase.url()
        wrongPassword.password = "not-the-password"
        var closedPort = try TestDatabase.url()
        // Port 1 (tcpmux) is not served on these machines: nothing listens there.
        closedPort.port = 1
        var missingDatabase = try TestDatabase.url()
        missingDatabase.database = "cdqi_no_such_database"
        let cases: [(PostgresURL, String)] = [
            (wrongPassword, "password authentication failed"),
            (closedPort, "Connection refused"),
            (missingDatabase, #"database "cdqi_no_such_database" does not exist"#),
        ]
        for (url, reason) in cases {
            do {
                _ = try PostgresConnection(url: url)
                Issue.record("connected to \(url)")
            } catch {
                #expect(error.kind == .connectionFailed)
                #expect(error.message.contains(reason), "\(error.message)")
                #expect(!error.message.contains("not-the-password"))
            }
        }
        #expect {
            _ = try PostgresConnection(url: "postgres://h:70000/d")
        } throws: { error in
            (error as? PostgresError)?.kind == .invalidURL
        }
    }

    @Test("a transaction commits, rolls back on a throw, and refuses to commit after a caught failure")
    func transactions() throws {
        struct Abandon: Error {}
        try TestDatabase.withScratchSchema { connection, _ in
            try connection.execute("CREATE TABLE t (k bigint PRIMARY KEY)")
            try connection.transaction { _ = try connection.query("INSERT INTO t VALUES ($1)", [.integer(1)]) }
            #expect(throws: Abandon.self) {
                try connection.transaction {
                    try connection.query("INSERT INTO t VALUES ($1)", [.integer(2)])
                    throw Abandon()
                }
            }
            #expect {
                try connection.transaction {
                    try connection.query("INSERT INTO t VALUES ($1)", [.integer(3)])
                    _ = try? connection.query("INSERT INTO t VALUES ($1)", [.integer(1)])
                }
            } throws: { error in
                (error as? PostgresError)?.sqlState == "25P02"
            }
            // A nested transaction is a savepoint: its rollback keeps the outer work.
            try connection.transaction {
                try connection.query("INSERT INTO t VALUES ($1)", [.integer(4)])
                try? connection.transaction {
                    try connection.query("INSERT INTO t VALUES ($1)", [.integer(5)])
                    throw Abandon()
                }
            }
            #expect(!connection.isInTransaction)
            #expect(try connection.query("SELECT k FROM t ORDER BY k").rows() == [[.integer(1)], [.integer(4)]])
        }
    }

    @Test("a retrying transaction runs again after a serialization failure, and commits once")
    func retryingTransaction() throws {
        try TestDatabase.withScratchSchema { first, schema in
            let second = try PostgresConnection(url: TestDatabase.url(schema: schema))
            defer { second.close() }
            try first.execute("CREATE TABLE counter (id bigint PRIMARY KEY, n bigint)")
            try first.query("INSERT INTO counter VALUES (1, 0)")
            var attempts = 0
            try first.retryingTransaction(isolation: .repeatableRead, attempts: 3) {
                attempts += 1
                // The snapshot is taken here; on the first attempt another connection then changes the row.
                _ = try first.query("SELECT n FROM counter WHERE id = $1", [.integer(1)])
                if attempts == 1 { try second.query("UPDATE counter SET n = n + 10 WHERE id = $1", [.integer(1)]) }
                try first.query("UPDATE counter SET n = n + 1 WHERE id = $1", [.integer(1)])
            }
            #expect(attempts == 2)
            // 10 from the other connection, 1 from the attempt that committed.
            #expect(try first.query("SELECT n FROM counter").value(row: 0, column: 0) == .integer(11))
        }
    }

    @Test("a serialization failure between two serializable transactions is typed and retryable")
    func serializationFailure() throws {
        try TestDatabase.withScratchSchema { first, schema in
            let second = try PostgresConnection(url: TestDatabase.url(schema: schema))
            try first.execute("CREATE TABLE duty (doctor bigint, on_call bigint)")
            try first.query("INSERT INTO duty VALUES (1, 1), (2, 1)")
            // Write skew: each reads both rows, then takes a different doctor off call.
            try first.execute("BEGIN ISOLATION LEVEL SERIALIZABLE")
            try second.execute("BEGIN ISOLATION LEVEL SERIALIZABLE")
            _ = try first.query("SELECT sum(on_call) FROM duty")
            _ = try second.query("SELECT sum(on_call) FROM duty")
            try first.query("UPDATE duty SET on_call = 0 WHERE doctor = $1", [.integer(1)])
            try second.query("UPDATE duty SET on_call = 0 WHERE doctor = $1", [.integer(2)])
            try first.execute("COMMIT")
            do throws(PostgresError) {
                try second.execute("COMMIT")
                Issue.record("both transactions committed")
            } catch {
                #expect(error.kind == .serializationFailure)
                #expect(error.sqlState == "40001")
                #expect(error.isRetryable)
            }
            second.close()
        }
    }
}
