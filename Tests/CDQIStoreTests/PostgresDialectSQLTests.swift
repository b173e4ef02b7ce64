import CDQIModel
import CDQIPredicate
import CDQITestSupport
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// The PostgreSQL dialect of the SQL compiler: the statements it writes for the Company model, each
/// worked out by hand from the dialect's rules (quoted identifiers, typed `$n` placeholders, `TRUE`/
/// `FALSE`, `IS NOT DISTINCT FROM`, `COLLATE "C"` for string order), and what it refuses.
@Suite("PostgreSQL dialect of the SQL compiler")
struct PostgresDialectSQLTests {
    func builder() throws -> FetchSQLBuilder {
        let store = try SQLiteStore(model: try StoreTestSupport.fixtureModel("Company"), url: nil)
        return FetchSQLBuilder(model: store.model, schema: store.schema, storeIdentifier: store.metadata.uuid, dialect: .postgres)
    }

    func postgres(
        _ entity: String, _ format: String, _ arguments: [Any?] = [], sort: [FetchSortDescriptor] = [],
        limit: Int = 0
    ) throws -> (String, [StoredValue]) {
        var request = FetchRequest(entityName: entity, predicate: try PredicateNode(format: format, argumentArray: arguments))
        request.sortDescriptors = sort
        request.fetchLimit = limit
        let fragment = try builder().build(request, shape: .objectIDs)
        return (SQLDialect.postgres.statementText(fragment), fragment.bindings.map { $0.resolve(constants: [], request: request) })
    }

    static let employees = "SELECT t0.\"Z_ENT\", t0.\"Z_PK\" FROM \"ZEMPLOYEE\" t0"
    static let departments = "SELECT t0.\"Z_ENT\", t0.\"Z_PK\" FROM \"ZDEPARTMENT\" t0"

    @Test("a dozen predicates compile to the PostgreSQL text worked out by hand")
    func handCheckedStatements() throws {
        let e = Self.employees
        let cases: [(String, String, [Any?], String, [StoredValue])] = [
            ("Employee", "salary > %@", [1000], "\(e) WHERE t0.\"ZSALARY\" > $1::bigint", [.integer(1000)]),
            (
                "Employee", "NOT salary > %@", [1000],
                "\(e) WHERE NOT ((t0.\"ZSALARY\" > $1::bigint AND t0.\"ZSALARY\" IS NOT NULL))", [.integer(1000)]
            ),
            ("Employee", "lastName < %@", ["b"], "\(e) WHERE t0.\"ZLASTNAME\" < $1::text COLLATE \"C\"", [.string("b")]),
            ("Employee", "nickName == nil", [], "\(e) WHERE t0.\"ZNICKNAME\" IS NULL", []),
            ("Employee", "firstName == lastName", [], "\(e) WHERE t0.\"ZFIRSTNAME\" IS NOT DISTINCT FROM t0.\"ZLASTNAME\"", []),
            (
                "Employee", "firstName ==[cd] %@", ["Café"],
                "\(e) WHERE cdqi_fold(t0.\"ZFIRSTNAME\", $1::bigint) = $2::text COLLATE \"C\"", [.integer(3), .string("cafe")]
            ),
            (
                "Employee", "lastName BEGINSWITH[c] %@", ["al"],
                "\(e) WHERE cdqi_beginswith(t0.\"ZLASTNAME\", $1::text, $2::bigint)", [.string("al"), .integer(1)]
            ),
            (
                "Employee", "lastName LIKE %@", ["a*b"],
                "\(e) WHERE cdqi_like(t0.\"ZLASTNAME\", $1::text, $2::bigint)", [.string("a*b"), .integer(0)]
            ),
            (
                "Employee", "lastName MATCHES %@", ["Al.ce"],
                "\(e) WHERE cdqi_matches(t0.\"ZLASTNAME\", $1::text, $2::bigint)",
                [.string("^(?:Al[^\\n\\r\\u0085\\u2028\\u2029]ce)$"), .integer(0)]
            ),
            (
                "Employee", "salary BETWEEN {%@, %@}", [1000, 2000],
                "\(e) WHERE COALESCE(t0.\"ZSALARY\" BETWEEN $1::bigint AND $2::bigint, FALSE)", [.integer(1000), .integer(2000)]
            ),
            (
                "Employee", "lastName BETWEEN {'a', 'c'}", [],
                "\(e) WHERE COALESCE(t0.\"ZLASTNAME\" COLLATE \"C\" BETWEEN $1::text AND $2::text, FALSE)", [.string("a"), .string("c")]
            ),
            (
                "Employee", "lastName IN {'a', 'b'}", [],
                "\(e) WHERE COALESCE(t0.\"ZLASTNAME\" IN ($1::text, $2::text), FALSE)", [.string("a"), .string("b")]
            ),
            (
                "Employee", "department.name == 'R'", [],
                "\(e) LEFT JOIN \"ZDEPARTMENT\" t1 ON t1.\"Z_PK\" = t0.\"ZDEPARTMENT\" WHERE t1.\"ZNAME\" = $1::text COLLATE \"C\"",
                [.string("R")]
            ),
            ("Employee", "salary / 0 == nil", [], "\(e) WHERE (t0.\"ZSALARY\" / NULLIF($1::bigint, 0)) IS NULL", [.integer(0)]),
            ("Employee", "FALSEPREDICATE OR TRUEPREDICATE", [], "\(e) WHERE (FALSE OR TRUE)", []),
            (
                "Department", "ANY employees.salary > 5", [],
                "\(Self.departments) WHERE EXISTS (SELECT 1 FROM \"ZEMPLOYEE\" t1 WHERE t1.\"ZDEPARTMENT\" = t0.\"Z_PK\" AND t1.\"ZSALARY\" > $1::bigint)",
                [.integer(5)]
            ),
            (
                "Department", "employees.@max.lastName == 'x'", [],
                "\(Self.departments) WHERE (SELECT MAX(t1.\"ZLASTNAME\" COLLATE \"C\") FROM \"ZEMPLOYEE\" t1 WHERE t1.\"ZDEPARTMENT\" = t0.\"Z_PK\") = $1::text COLLATE \"C\"",
                [.string("x")]
            ),
        ]
        for (entity, format, arguments, expectedSQL, expectedBindings) in cases {
            let (sql, bindings) = try postgres(entity, format, arguments)
            #expect(sql == expectedSQL, "\(format)")
            #expect(bindings == expectedBindings, "\(format)")
        }
    }

    @Test("sorting: code-point order, nil first ascending, caseInsensitiveCompare through cdqi_fold; no limit is LIMIT NULL")
    func sorting() throws {
        let (sql, bindings) = try postgres(
            "Employee", "TRUEPREDICATE",
            sort: [
                FetchSortDescriptor(keyPath: "lastName", comparison: .caseInsensitiveCompare),
                FetchSortDescriptor(keyPath: "nickName", ascending: false),
            ], limit: 5)
        #expect(
            sql == "\(Self.employees) WHERE TRUE ORDER BY cdqi_fold(t0.\"ZLASTNAME\", $1::bigint) COLLATE \"C\" ASC NULLS FIRST, "
                + "t0.\"ZNICKNAME\" COLLATE \"C\" DESC NULLS LAST, t0.\"Z_PK\" LIMIT $2::bigint OFFSET $3::bigint")
        #expect(bindings == [.integer(1), .integer(5), .integer(0)])
        var request = FetchRequest(entityName: "Employee")
        request.fetchOffset = 2
        let fragment = try builder().build(request, shape: .count)
        #expect(
            SQLDialect.postgres.statementText(fragment)
                == "SELECT COUNT(*) FROM (SELECT t0.\"Z_ENT\", t0.\"Z_PK\" FROM \"ZEMPLOYEE\" t0 ORDER BY t0.\"Z_PK\" LIMIT $1::bigint OFFSET $2::bigint) AS w")
        #expect(fragment.bindings.map { $0.resolve(constants: [], request: request) } == [.null, .integer(2)])
    }

    @Test("a grouped dictionary fetch: averages as double precision, HAVING on a named column, code-point order")
    func dictionaryFetch() throws {
        let store = try SQLiteStore(model: try StoreTestSupport.fixtureModel("Company"), url: nil)
        var request = FetchRequest(entityName: "Employee")
        request.propertiesToFetch = [
            "lastName", .expression(ExpressionDescription(name: "mean", expression: try ExpressionNode(format: "average:(salary)"))),
        ]
        request.propertiesToGroupBy = ["lastName"]
        request.havingPredicate = try PredicateNode(format: "$mean > 1000")
        request.sortDescriptors = [FetchSortDescriptor(keyPath: "lastName")]
        let builder = DictionaryFetchSQLBuilder(
            model: store.model, schema: store.schema, storeIdentifier: store.metadata.uuid, dialect: .postgres)
        let (fragment, columns) = try builder.build(request)
        #expect(
            SQLDialect.postgres.statementText(fragment)
                == "SELECT t0.\"ZLASTNAME\", CAST(AVG(t0.\"ZSALARY\") AS double precision) FROM \"ZEMPLOYEE\" t0 GROUP BY t0.\"ZLASTNAME\" "
                + "HAVING CAST(AVG(t0.\"ZSALARY\") AS double precision) > $1::bigint ORDER BY t0.\"ZLASTNAME\" COLLATE \"C\" ASC NULLS FIRST")
        #expect(fragment.bindings.map { $0.resolve(constants: [], request: request) } == [.integer(1000)])
        #expect(columns.map(\.name) == ["lastName", "mean"])
    }

    @Test("batch DELETE and UPDATE in PostgreSQL: quoted names, RETURNING, the version bumped, joins as a key subquery")
    func batchStatements() throws {
        let store = try SQLiteStore(model: try StoreTestSupport.fixtureModel("Company"), url: nil)
        let builder = BatchStatementBuilder(
            model: store.model, schema: store.schema, storeIdentifier: store.metadata.uuid, dialect: .postgres)
        let delete = try builder.delete(
            FetchRequest(entityName: "Employee", predicate: try PredicateNode(format: "salary > 1000")), returning: true)
        #expect(delete.table == "ZEMPLOYEE")
        #expect(
            SQLDialect.postgres.statementText(delete.statement)
                == "DELETE FROM \"ZEMPLOYEE\" AS t0 WHERE t0.\"ZSALARY\" > $1::bigint RETURNING \"Z_ENT\", \"Z_PK\"")
        let joined = try builder.delete(
            FetchRequest(entityName: "Employee", predicate: try PredicateNode(format: "department.name == 'R'")), returning: false)
        #expect(
            SQLDialect.postgres.statementText(joined.statement)
                == "DELETE FROM \"ZEMPLOYEE\" AS t0 WHERE t0.\"Z_PK\" IN (SELECT t0.\"Z_PK\" FROM \"ZEMPLOYEE\" t0 "
                + "LEFT JOIN \"ZDEPARTMENT\" t1 ON t1.\"Z_PK\" = t0.\"ZDEPARTMENT\" WHERE t1.\"ZNAME\" = $1::text COLLATE \"C\")")
        let update = try builder.update(
            BatchUpdateRequest(entityName: "Employee", propertiesToUpdate: ["salary": .expression(try ExpressionNode(format: "salary + 1"))]),
            returning: false)
        #expect(
            SQLDialect.postgres.statementText(update)
                == "UPDATE \"ZEMPLOYEE\" AS t0 SET \"ZSALARY\" = (t0.\"ZSALARY\" + $1::bigint), \"Z_OPT\" = \"Z_OPT\" + 1 WHERE TRUE")
    }

    @Test("a PostgreSQL MATCHES binds its translated pattern, so its compilation is not reused for other constants")
    func matchesIsNotCached() throws {
        let predicate = try PredicateNode(format: "lastName MATCHES 'A.*'")
        var postgres = PredicateParameterizer(storeIdentifier: "s", dialect: .postgres)
        _ = postgres.rewrite(predicate)
        #expect(!postgres.isCacheable)
        var sqlite = PredicateParameterizer(storeIdentifier: "s", dialect: .sqlite)
        _ = sqlite.rewrite(predicate)
        #expect(sqlite.isCacheable)
    }

    @Test("what PostgreSQL refuses that SQLite runs, with the construct and its offset")
    func refusals() throws {
        func refusal(_ format: String, _ arguments: [Any?] = [], sort: [FetchSortDescriptor] = []) -> (String, Int?)? {
            do {
                _ = try postgres("Employee", format, arguments, sort: sort)
                return nil
            } catch let PredicateSQLError.notInDialect(dialect, construct, offset, _) {
                #expect(dialect == .postgres)
                return (construct, offset)
            } catch {
                return ("\(error)", -1)
            }
        }
        let patterns: [(String, String, Int)] = [
            ("(?=a)b", "the group '(?…'", 0),
            ("(a)\\1", "the escape '\\1'", 3),
            ("\\p{L}+", "the escape '\\p'", 0),
            ("a++", "a quantifier after a quantifier (possessive or nested)", 2),
            ("[[a-z]&&[aeiou]]", "a nested class or set operation", 1),
            ("a^b", "'^' after the start of the pattern", 1),
            ("\\bword", "the escape '\\b'", 0),
            ("x{300}", "a repetition count above 255", 1),
        ]
        for (pattern, construct, offset) in patterns {
            let found = refusal("lastName MATCHES %@", [pattern])
            #expect(
                found?.0 == "\(construct) in the MATCHES pattern of 'lastName MATCHES \"\(pattern.replacingOccurrences(of: "\\", with: "\\\\"))\"'",
                "\(pattern)")
            #expect(found?.1 == offset, "\(pattern)")
        }
        // Case-insensitive matching is ASCII-only: a non-ASCII pattern character is refused.
        #expect(refusal("lastName MATCHES[c] %@", ["caf\u{E9}.*"])?.1 == 3)
        #expect(refusal("lastName MATCHES nickName")?.0.hasPrefix("MATCHES with a pattern that is not a constant") == true)
        #expect(
            refusal("TRUEPREDICATE", sort: [FetchSortDescriptor(keyPath: "lastName", comparison: .localizedStandardCompare)])?.0
                == "sorting 'lastName' by localizedStandardCompare:")
        // An empty pattern never matches in the evaluator: FALSE, not a refusal.
        #expect(try postgres("Employee", "lastName MATCHES %@", [""]).0 == "\(Self.employees) WHERE FALSE")
    }

    @Test("MATCHES translations: anchored, dots exclude ICU's line terminators, lazy quantifiers made greedy, classes escaped")
    func regexTranslations() {
        let cases: [(String, Bool, String, Bool, Bool)] = [
            ("A.*", false, "^(?:A[^\\n\\r\\u0085\\u2028\\u2029]*)$", false, false),
            ("^b+?ob$", false, "^(?:b+ob)$", false, false),
            ("(?i)zoe", false, "^(?:zoe)$", true, false),
            ("[A-Z][^\\]x-]{2,3}", false, "^(?:[A-Z][^\\]x\\-]{2,3})$", false, false),
            ("a\\.b|c\\d", false, "^(?:a\\.b|c[0-9])$", false, true),
            ("x(?:y|z)?", true, "^(?:x(?:y|z)?)$", true, false),
            ("it's", false, "^(?:it\\'s)$", false, false),
        ]
        for (pattern, caseInsensitive, expected, flagCase, flagASCII) in cases {
            let result = PostgresRegexTranslator.translate(pattern, caseInsensitive: caseInsensitive)
            #expect(result == .success(.init(pattern: expected, caseInsensitive: flagCase, needsASCIISubject: flagASCII)), "\(pattern)")
        }
    }

    @Test("the characters case-insensitive MATCHES refuses in PostgreSQL: those ICU may take for ASCII ignoring case")
    func asciiCaseRelatives() {
        func listed(_ value: UInt32) -> Bool { PostgresFunctions.asciiCaseRelatives.contains { $0.contains(value) } }
        // ß → ss, ſ → s, K (Kelvin) → k, İ → i̇, ﬀ → ff, Ａ (fullwidth) → a.
        for value: UInt32 in [0xDF, 0x17F, 0x212A, 0x130, 0xFB00, 0xFF21] { #expect(listed(value), "U+\(String(value, radix: 16))") }
        // é, À, ø, Greek Σ and Cyrillic Ж fold to letters that are not ASCII.
        for value: UInt32 in [0xE9, 0xC0, 0xF8, 0x3A3, 0x416] { #expect(!listed(value), "U+\(String(value, radix: 16))") }
    }

    @Test("cdqi_fold's tables fold every character of the domain and random strings exactly as StringFolding")
    func foldTables() {
        var random = SeededGenerator(seed: 22)
        var scalars: [Unicode.Scalar] = []
        for range in PostgresFoldTable.domain { for value in range { if let s = Unicode.Scalar(value) { scalars.append(s) } } }
        let tables: [(ComparisonOptions, PostgresFoldTable.Table)] = [
            (.caseInsensitive, PostgresFoldTable.caseInsensitive), (.diacriticInsensitive, PostgresFoldTable.diacriticInsensitive),
            ([.caseInsensitive, .diacriticInsensitive], PostgresFoldTable.both),
        ]
        var mismatches: [String] = []
        for (options, table) in tables {
            #expect(!table.from.contains("\\") && !table.to.contains("\\"))
            for scalar in scalars
            where !table.apply(String(scalar)).unicodeScalars.elementsEqual(StringFolding.fold(String(scalar), options: options).unicodeScalars) {
                mismatches.append("\(options.rawValue) U+\(String(scalar.value, radix: 16))")
            }
            for _ in 0..<20_000 {
                var string = ""
                for _ in 0..<(1 + random.below(5)) { string.unicodeScalars.append(scalars[random.below(scalars.count)]) }
                if !table.apply(string).unicodeScalars.elementsEqual(StringFolding.fold(string, options: options).unicodeScalars) {
                    mismatches.append("\(options.rawValue) \(string.unicodeScalars.map { String($0.value, radix: 16) })")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
        // Hand-checked entries: É → é with [c], É → E with [d], ß → ss with [c].
        #expect(PostgresFoldTable.caseInsensitive.apply("ÉßA") == "éssa")
        #expect(PostgresFoldTable.diacriticInsensitive.apply("Éa") == "Ea")
        #expect(PostgresFoldTable.both.apply("Zoë") == "zoe")
    }
}
