import CDQIModel
import CDQIPostgres
import CDQIPredicate
import CDQITestSupport
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// The PostgreSQL twin of ``SQLDifferentialTests``: the same generated Company rows, copied into a
/// PostgreSQL schema of their own, and the same generated predicates compiled to the PostgreSQL dialect
/// must select exactly the rows the in-memory evaluator selects. A predicate PostgreSQL refuses (at
/// compile time with ``PredicateSQLError/notInDialect(dialect:construct:offset:reason:)``, or at run
/// time with the functions' `CQ001`/`CQ002`) is counted apart, never as an agreement; any other
/// difference is a disagreement, and there must be none.
@Suite(
    "SQL compiler's PostgreSQL dialect against the in-memory evaluator",
    .enabled(if: ProcessInfo.processInfo.environment["CDQI_POSTGRES_URL"] != nil, "CDQI_POSTGRES_URL is not set"))
struct PostgresSQLDifferentialTests {
    /// A connection to a fresh schema, laid out by ``PostgresStoreLayout`` as Core Data lays out the
    /// store's model, holding the SQLite store's rows (join tables included) and the dialect's functions.
    func postgresCopy(of store: SQLiteStore, schema: String) throws -> PostgresConnection {
        let url = ProcessInfo.processInfo.environment["CDQI_POSTGRES_URL"] ?? ""
        var parsed = try PostgresURL(url)
        parsed.schema = schema
        let connection = try PostgresConnection(url: parsed)
        try connection.execute("DROP SCHEMA IF EXISTS \(PostgresConnection.quoteIdentifier(schema)) CASCADE")
        let layout = PostgresStoreLayout(model: store.model, schemaName: schema)
        _ = try layout.open(connection)
        try connection.execute(PostgresFunctions.script(schema: schema))
        // Installing twice changes nothing (CREATE OR REPLACE).
        try connection.execute(PostgresFunctions.script(schema: schema))
        for table in store.schema.tables.map(\.name) + store.schema.joinTables.map(\.name) {
            let select = try store.connection.prepare("SELECT * FROM \(table)")
            let names = (0..<select.columnCount).map { select.columnName($0) }
            let placeholders = names.indices.map { "$\($0 + 1)" }.joined(separator: ", ")
            let columns = names.map(PostgresConnection.quoteIdentifier).joined(separator: ", ")
            let insert = "INSERT INTO \(layout.qualified(table)) (\(columns)) VALUES (\(placeholders))"
            while try select.step() {
                var values: [StoredValue] = []
                for (index, name) in names.enumerated() {
                    // SQLite's storage classes: 1 integer, 2 real, 3 text, 5 null.
                    switch select.storageClass(index) {
                    case 5: values.append(.null)
                    case 1: values.append(.integer(select.int64(index)))
                    case 2: values.append(.double(select.double(index)))
                    case 3: values.append(.string(select.string(index)))
                    default: Issue.record("unexpected column type for \(table).\(name)")
                    }
                }
                try connection.query(insert, values)
            }
        }
        return connection
    }

    struct Tally {
        var agreed = 0, refusedByBoth = 0, refusedAtCompile = 0, refusedAtRun = 0
        var problems: [String] = []
        /// Run-time refusals by SQLSTATE (CQ001 folding outside the domain, CQ002 a non-ASCII subject).
        var refusalStates: [String: Int] = [:]
        var total: Int { agreed + refusedByBoth + refusedAtCompile + refusedAtRun + problems.count }
    }

    func run(
        entity: String, rows: [SQLDifferentialTests.Row], store: SQLiteStore, connection: PostgresConnection, count: Int,
        next: (inout SQLDifferentialTests.PredicateGenerator) -> (String, [Any?]),
        generator: inout SQLDifferentialTests.PredicateGenerator, tally: inout Tally
    ) throws {
        let builder = FetchSQLBuilder(model: store.model, schema: store.schema, storeIdentifier: store.metadata.uuid, dialect: .postgres)
        for _ in 0..<count {
            let (format, arguments) = next(&generator)
            guard let predicate = try? PredicateNode(format: format, argumentArray: arguments) else {
                tally.problems.append("\(format): does not parse")
                continue
            }
            let expected = try? Set(rows.filter { try predicate.evaluate(with: $0) }.map(\.primaryKey))
            let request = FetchRequest(entityName: entity, predicate: predicate)
            let fragment: SQLFragment
            do {
                fragment = try builder.build(request, shape: .objectIDs)
            } catch PredicateSQLError.notInDialect {
                tally.refusedAtCompile += 1
                continue
            } catch {
                if expected == nil { tally.refusedByBoth += 1 } else { tally.problems.append("\(format): compiler refused: \(error)") }
                continue
            }
            let sql = SQLDialect.postgres.statementText(fragment)
            let values = fragment.bindings.map { $0.resolve(constants: [], request: request) }
            do {
                let result = try connection.query(sql, values)
                var actual: Set<Int64> = []
                for row in 0..<result.rowCount { if let key = try result.int64(row: row, column: 1) { actual.insert(key) } }
                if let expected, expected == actual {
                    tally.agreed += 1
                } else {
                    tally.problems.append(
                        "\(predicate.predicateFormat): evaluator \(expected.map { "\($0.sorted())" } ?? "refused"), PostgreSQL \(actual.sorted())\n    \(sql) \(values)"
                    )
                }
            } catch  where error.sqlState == "CQ001" || error.sqlState == "CQ002" {
                tally.refusedAtRun += 1
                tally.refusalStates[error.sqlState ?? "", default: 0] += 1
            } catch {
                tally.problems.append("\(predicate.predicateFormat): PostgreSQL failed: \(error)\n    \(sql) \(values)")
            }
        }
    }

    @Test("many-to-many and one-to-many paths give the same objects in PostgreSQL and in memory", arguments: [11, 12] as [UInt64])
    func differentialManyToMany(seed: UInt64) throws {
        let graph = try SQLDifferentialTests().makeDevelopers(seed: seed)
        defer { graph.unlink() }
        let schema = Self.schemaName("\(seed)")
        let connection = try postgresCopy(of: graph.store, schema: schema)
        defer { drop(connection, schema: schema) }
        var generator = SQLDifferentialTests.PredicateGenerator(random: SeededGenerator(seed: seed &* 104_729), departmentReferences: [])
        let (developer, language, project) = SQLDifferentialTests.developersGenerators(graph)
        var tally = Tally()
        for (entity, rows, next) in [
            ("Developer", graph.developers, developer), ("Language", graph.languages, language), ("Project", graph.projects, project),
        ] as [(String, [SQLDifferentialTests.Row], (inout SQLDifferentialTests.PredicateGenerator) -> (String, [Any?]))] {
            try run(
                entity: entity, rows: rows, store: graph.store, connection: connection, count: 400, next: next,
                generator: &generator, tally: &tally)
        }
        print(
            "PostgreSQL differential many-to-many seed \(seed): \(tally.total) predicates, \(tally.agreed) agree, "
                + "\(tally.refusedByBoth) refused by both, \(tally.refusedAtCompile) refused by the PostgreSQL compiler, "
                + "\(tally.refusedAtRun) refused by PostgreSQL's functions \(tally.refusalStates.sorted { $0.key < $1.key }), \(tally.problems.count) disagree")
        for problem in tally.problems.prefix(15) { Issue.record("\(problem)") }
        #expect(tally.problems.isEmpty)
        #expect(tally.refusedByBoth > 0)  // `ANY projects.members.firstName` has two to-many steps: both refuse it
    }

    @Test("generated predicates give the same objects in PostgreSQL and in memory", arguments: [1, 2, 3] as [UInt64])
    func differential(seed: UInt64) throws {
        let graph = try SQLDifferentialTests().makeCompany(seed: seed)
        defer { graph.unlink() }
        let schema = Self.schemaName("\(seed)")
        let connection = try postgresCopy(of: graph.store, schema: schema)
        defer { drop(connection, schema: schema) }
        var generator = SQLDifferentialTests.PredicateGenerator(
            random: SeededGenerator(seed: seed &* 7919),
            departmentReferences: graph.departments.map(\.reference)
                + [ObjectReference(entityName: "Department", storeIdentifier: "elsewhere", identity: .primaryKey(1))])
        var tally = Tally()
        try run(
            entity: "Employee", rows: graph.employees, store: graph.store, connection: connection, count: 700,
            next: { $0.employeePredicate() }, generator: &generator, tally: &tally)
        try run(
            entity: "Department", rows: graph.departments, store: graph.store, connection: connection, count: 700,
            next: { $0.departmentPredicate() }, generator: &generator, tally: &tally)
        print(
            "PostgreSQL differential seed \(seed): \(tally.total) predicates, \(tally.agreed) agree, \(tally.refusedByBoth) refused by both, "
                + "\(tally.refusedAtCompile) refused by the PostgreSQL compiler, \(tally.refusedAtRun) refused by PostgreSQL's functions \(tally.refusalStates.sorted { $0.key < $1.key }), "
                + "\(tally.problems.count) disagree")
        for problem in tally.problems.prefix(15) { Issue.record("\(problem)") }
        #expect(tally.problems.isEmpty)
        #expect(tally.agreed > tally.total * 9 / 10)
    }

    /// A schema name no other test run uses at the same time.
    static func schemaName(_ label: String) -> String {
        "cdqi_differential_\(label)_" + UUID().uuidString.prefix(8).lowercased()
    }

    /// Drops a test's schema and closes its connection.
    func drop(_ connection: PostgresConnection, schema: String) {
        try? connection.execute("DROP SCHEMA IF EXISTS \(PostgresConnection.quoteIdentifier(schema)) CASCADE")
        connection.close()
    }
}

extension PostgresSQLDifferentialTests {
    @Test("cdqi_fold in PostgreSQL folds every character of its domain as StringFolding does, and refuses one outside it")
    func foldInPostgres() throws {
        let schema = Self.schemaName("fold")
        let graph = try SQLDifferentialTests().makeCompany(seed: 1)
        defer { graph.unlink() }
        let connection = try postgresCopy(of: graph.store, schema: schema)
        defer { drop(connection, schema: schema) }
        var scalars: [Unicode.Scalar] = []
        for range in PostgresFoldTable.domain { for value in range { if let s = Unicode.Scalar(value) { scalars.append(s) } } }
        // One character per field, fields separated by U+0001 (which every folding keeps).
        let joined = scalars.map { String($0) }.joined(separator: "\u{1}")
        for options in [1, 2, 3, 4, 5, 7] as [Int64] {
            let folding = ComparisonOptions(rawValue: Int(options))
            let expected = scalars.map { StringFolding.fold(String($0), options: folding) }.joined(separator: "\u{1}")
            let result = try connection.query("SELECT cdqi_fold($1::text, $2::bigint)", [.string(joined), .integer(options)])
            let folded = try result.string(row: 0, column: 0) ?? ""
            #expect(Array(folded.unicodeScalars) == Array(expected.unicodeScalars), "options \(options)")
        }
        // Hand-checked: "Zoë Straße" folds to "zoe strasse" with [cd]; "中" is outside the domain.
        let hand = try connection.query("SELECT cdqi_fold($1::text, 3::bigint)", [.string("Zoë Straße")])
        #expect(try hand.string(row: 0, column: 0) == "zoe strasse")
        do {
            _ = try connection.query("SELECT cdqi_fold($1::text, 1::bigint)", [.string("中")])
            Issue.record("folding text outside the domain should be refused")
        } catch {
            #expect(error.sqlState == "CQ001")
        }
        // Without folding, any text passes through.
        let plain = try connection.query("SELECT cdqi_fold($1::text, 0::bigint)", [.string("中")])
        #expect(try plain.string(row: 0, column: 0) == "中")
    }
}

extension PostgresSQLDifferentialTests {
    @Test("cdqi_matches in PostgreSQL: case-insensitive on ASCII case rules, refusing what ICU could read otherwise")
    func matchesInPostgres() throws {
        let schema = Self.schemaName("matches")
        let graph = try SQLDifferentialTests().makeCompany(seed: 1)
        defer { graph.unlink() }
        let connection = try postgresCopy(of: graph.store, schema: schema)
        defer { drop(connection, schema: schema) }
        func matches(_ text: String, _ are: String, _ flags: Int64) throws(PostgresError) -> Bool {
            let result = try connection.query("SELECT cdqi_matches($1::text, $2::text, $3::bigint)", [.string(text), .string(are), .integer(flags)])
            let value = try result.value(row: 0, column: 0)
            return value == .bool(true) || value == .integer(1)
        }
        // `(?i)caf.` on "CAFÉ": C, A, F match ignoring case, É is any character.
        #expect(try matches("CAFÉ", "^(?:caf[^\\n\\r\\u0085\\u2028\\u2029])$", 1) == true)
        #expect(try matches("CAFÉ", "^(?:caf[^\\n\\r\\u0085\\u2028\\u2029])$", 0) == false)
        // Refused: ß may equal "ss" ignoring case in ICU; \d on non-ASCII text.
        for (text, are, flags) in [("Straße", "^(?:stra.*)$", 1), ("٣", "^(?:[0-9])$", 2)] as [(String, String, Int64)] {
            do {
                _ = try matches(text, are, flags)
                Issue.record("\(text) should be refused")
            } catch {
                #expect(error.sqlState == "CQ002")
            }
        }
    }
}
