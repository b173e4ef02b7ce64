import CDQIPostgres
import CDQIPredicate
import Foundation
import Testing

/// The connection reuses its parameter buffers and prepared statements from one statement to the
/// next: whatever ran before (other types, longer values, more parameters, a failure), each statement
/// sends exactly its own values to the statement prepared for its own types.
@Suite("PostgresConnection statement reuse", .enabled(if: TestDatabase.isAvailable, "CDQI_POSTGRES_URL is not set"))
struct PostgresStatementReuseTests {
    @Test("one SQL with many parameter types: one statement per types, each run with its own")
    func manySignatures() throws {
        let connection = try PostgresConnection(url: TestDatabase.url())
        // The casts come first, so that an untyped NULL's type is inferred from them: text.
        let sql = "SELECT $1::text, $2::text, pg_typeof($1)::text, pg_typeof($2)::text"
        // (parameters, the values as text and the types the server sees).
        let cases: [([StoredValue], [StoredValue])] = [
            ([.integer(7), .string("a")], [.string("7"), .string("a"), .string("bigint"), .string("text")]),
            ([.string("b"), .integer(8)], [.string("b"), .string("8"), .string("text"), .string("bigint")]),
            ([.double(1.5), .data(Data([1]))], [.string("1.5"), .string("\\x01"), .string("double precision"), .string("bytea")]),
            ([.null, .integer(9)], [.null, .string("9"), .string("text"), .string("bigint")]),
            ([.integer(10), .null], [.string("10"), .null, .string("bigint"), .string("text")]),
            (
                [.bool(true), .date(secondsSinceReferenceDate: 2)],
                [.string("1"), .string("2"), .string("bigint"), .string("double precision")]
            ),
        ]
        // Each set of types once, then all of them again in another order: nothing new is prepared.
        for (parameters, expected) in cases {
            #expect(try connection.query(sql, parameters).row(0) == expected)
        }
        #expect(connection.cachedStatementCount == 6)
        for (parameters, expected) in cases.reversed() + cases {
            #expect(try connection.query(sql, parameters).row(0) == expected)
        }
        // The same types as the first case, other values: still the first statement.
        #expect(
            try connection.query(sql, [.integer(-1), .string("z")]).row(0)
                == [.string("-1"), .string("z"), .string("bigint"), .string("text")])
        #expect(connection.cachedStatementCount == 6)
        // Another SQL with the same types is another statement; the two alternate correctly.
        for round in 0..<3 {
            #expect(try connection.query("SELECT $1 + 1, $2", [.integer(Int64(round)), .string("x")]).row(0) == [.integer(Int64(round) + 1), .string("x")])
            #expect(
                try connection.query(sql, [.integer(Int64(round)), .string("y")]).row(0)
                    == [.string(String(round)), .string("y"), .string("bigint"), .string("text")])
        }
        #expect(connection.cachedStatementCount == 7)
    }

    @Test("NULLs, empty strings and empty bytes keep their places among other parameters")
    func nullsAndEmptyValues() throws {
        let connection = try PostgresConnection(url: TestDatabase.url())
        let values: [StoredValue] = [.string(""), .null, .data(Data()), .string("x"), .null, .data(Data([0])), .integer(3)]
        #expect(try connection.query("SELECT $1, $2, $3, $4, $5, $6, $7", values).row(0) == values)
        // Empty is not NULL, in any position.
        let nulls = try connection.query(
            "SELECT $1::text IS NULL, $2::text IS NULL, $3::bytea IS NULL, $4::text = ''", [.string(""), .null, .data(Data()), .string("")])
        #expect(try nulls.row(0) == [.bool(false), .bool(true), .bool(false), .bool(true)])
        // No parameters at all after some, and some after none.
        #expect(try connection.query("SELECT 'none'").row(0) == [.string("none")])
        #expect(try connection.query("SELECT $1::text", [.string("")]).row(0) == [.string("")])
    }

    @Test("values larger than the buffers so far, then small ones: each statement sends only its own bytes")
    func largeValues() throws {
        let connection = try PostgresConnection(url: TestDatabase.url())
        let text = String(repeating: "é0123456789", count: 10_000)  // 12 bytes each: 120,000 bytes
        let bytes = Data((0..<1_000_000).map { UInt8($0 % 251) })
        let sql = "SELECT octet_length($1::text), octet_length($2::bytea), get_byte($2::bytea, $3::int4), $1, $2"
        let large = try connection.query(sql, [.string(text), .data(bytes), .integer(999_999)])
        // 999,999 = 3,984 × 251 + 15.
        #expect(try large.row(0) == [.integer(120_000), .integer(1_000_000), .integer(15), .string(text), .data(bytes)])
        let small = try connection.query(sql, [.string("ab"), .data(Data([9, 8])), .integer(1)])
        #expect(try small.value(row: 0, column: 0) == .integer(2))
        #expect(try small.value(row: 0, column: 1) == .integer(2))
        #expect(try small.value(row: 0, column: 2) == .integer(8))
        #expect(try small.value(row: 0, column: 3) == .string("ab"))
        #expect(try small.value(row: 0, column: 4) == .data(Data([9, 8])))
        // 100 parameters, more than any statement before: 1 + 2 + … + 100.
        let many = (1...100).map { StoredValue.integer(Int64($0)) }
        let sum = (1...100).map { "$\($0)" }.joined(separator: " + ")
        #expect(try connection.query("SELECT " + sum, many).value(row: 0, column: 0) == .integer(5050))
        #expect(try connection.query("SELECT $1 + $2", [.integer(40), .integer(2)]).value(row: 0, column: 0) == .integer(42))
    }

    @Test("after a failed statement, a failed preparation or too many parameters, the next statements run right")
    func reuseAfterErrors() throws {
        let connection = try PostgresConnection(url: TestDatabase.url())
        // Fails when run: division by zero (22012); the statement stays prepared and runs again.
        #expect {
            try connection.query("SELECT 10 / $1", [.integer(0)])
        } throws: { error in
            (error as? PostgresError)?.sqlState == "22012"
        }
        #expect(try connection.query("SELECT 10 / $1", [.integer(2)]).value(row: 0, column: 0) == .integer(5))
        #expect(connection.cachedStatementCount == 1)
        // Fails when prepared: nothing is cached, and the same types then prepare another statement.
        #expect {
            try connection.query("SELEC $1", [.integer(1)])
        } throws: { error in
            (error as? PostgresError)?.kind == .syntaxError
        }
        #expect(connection.cachedStatementCount == 1)
        #expect {
            try connection.query("SELEC $1", [.integer(1)])
        } throws: { error in
            (error as? PostgresError)?.kind == .syntaxError
        }
        #expect(try connection.query("SELECT $1 * 3", [.integer(1)]).value(row: 0, column: 0) == .integer(3))
        #expect(connection.cachedStatementCount == 2)
        // Refused before it is sent: more parameters than the protocol carries.
        let tooMany = [StoredValue](repeating: .integer(1), count: 65_536)
        #expect {
            try connection.query("SELECT $1", tooMany)
        } throws: { error in
            (error as? PostgresError)?.message == "65536 parameters, more than PostgreSQL's limit of 65535"
        }
        #expect(try connection.query("SELECT $1, $2", [.string("p"), .null]).row(0) == [.string("p"), .null])
        #expect(try connection.queryUncached("SELECT $1::bigint - 1", [.integer(1)]).value(row: 0, column: 0) == .integer(0))
    }

    @Test("affected-row counts of every size, and none for commands without rows")
    func affectedRowCounts() throws {
        try TestDatabase.withScratchSchema { connection, _ in
            #expect(try connection.queryUncached("CREATE TABLE n (k bigint)").affectedRowCount == 0)
            #expect(try connection.query("INSERT INTO n SELECT generate_series(1, $1)", [.integer(12_345)]).affectedRowCount == 12_345)
            #expect(try connection.query("DELETE FROM n WHERE k > $1", [.integer(12_340)]).affectedRowCount == 5)
            #expect(try connection.query("UPDATE n SET k = k WHERE k < $1", [.integer(0)]).affectedRowCount == 0)
            let selected = try connection.query("SELECT k FROM n WHERE k <= $1", [.integer(10)])
            #expect(selected.affectedRowCount == 10)
            #expect(selected.rowCount == 10)
            #expect(selected.columnCount == 1)
        }
    }

    @Test("a value of a type CDQI does not read names its column")
    func unreadableColumnNamed() throws {
        let connection = try PostgresConnection(url: TestDatabase.url())
        let result = try connection.query("SELECT 1 AS fine, '1 day'::interval AS span")
        #expect(try result.value(row: 0, column: 0) == .integer(1))
        #expect {
            try result.value(row: 0, column: 1)
        } throws: { error in
            (error as? PostgresError)?.message == "column 'span' has type OID 1186, which CDQI does not read; cast it in the SQL (::text)"
        }
    }
}
