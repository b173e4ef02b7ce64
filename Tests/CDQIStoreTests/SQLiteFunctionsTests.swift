import CDQIPredicate
import CDQIStore
import Testing

/// The SQL functions and collations give the predicate language's answers (the examples of
/// predicate-language.md §3.3–§3.4, worked out there), inside SQLite.
@Suite("SQLite functions")
struct SQLiteFunctionsTests {
    private func connection() throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: ":memory:")
        try SQLiteFunctions.register(on: connection)
        return connection
    }

    /// Runs `SELECT function(?, ?, options)` with the two strings bound.
    private func call(
        _ connection: SQLiteConnection, _ function: String, _ left: String, _ right: String,
        _ options: ComparisonOptions = []
    ) throws -> Int64 {
        let statement = try connection.prepare("SELECT \(function)(?, ?, ?)")
        defer { statement.reset() }
        try statement.bind(left, at: 1)
        try statement.bind(right, at: 2)
        try statement.bind(Int64(options.rawValue), at: 3)
        #expect(try statement.step())
        return statement.int64(0)
    }

    @Test("LIKE, MATCHES and the substring operators, with and without options")
    func stringOperators() throws {
        let db = try connection()
        #expect(try call(db, "cdqi_like", "hello", "hel*o") == 1)
        #expect(try call(db, "cdqi_like", "heo", "hel*o") == 0)
        #expect(try call(db, "cdqi_like", "helo", "hel?o") == 0)
        #expect(try call(db, "cdqi_like", "hello", "hel?o") == 1)
        #expect(try call(db, "cdqi_like", "HELLO", "hello", [.caseInsensitive, .diacriticInsensitive]) == 1)
        #expect(try call(db, "cdqi_like", "naïve", "naive", .diacriticInsensitive) == 1)
        #expect(try call(db, "cdqi_matches", "hello", "hel{2}o") == 1)
        #expect(try call(db, "cdqi_matches", "Alice", "lic") == 0)
        #expect(try call(db, "cdqi_beginswith", "aBcDeF", "") == 0)
        #expect(try call(db, "cdqi_contains", "Zürich", "Zur", .diacriticInsensitive) == 1)
        #expect(try call(db, "cdqi_contains", "Zürich", "Zur") == 0)
        #expect(try call(db, "cdqi_endswith", "Café", "FE", [.caseInsensitive, .diacriticInsensitive]) == 1)
    }

    @Test("BEGINSWITH on ASCII starts agrees with the evaluator, whatever follows the prefix")
    func beginsWithFastPath() throws {
        let db = try connection()
        // By hand: the start is ASCII, so case folding alone decides; what comes later does not matter.
        #expect(try call(db, "cdqi_beginswith", "ITEM 12 \u{1F600} ü", "item 1", .caseInsensitive) == 1)
        #expect(try call(db, "cdqi_beginswith", "ITEM 12 ü", "item 1") == 0)
        #expect(try call(db, "cdqi_beginswith", "Item", "item 1", .caseInsensitive) == 0)
        // Against the evaluator's folding (a second implementation) on starts that are ASCII up to, at
        // or just past the prefix, with combining marks and non-ASCII letters right after it.
        let texts = [
            "Item 1", "item 12", "ITEM 1x\u{301}", "Item 1\u{301}", "Item 1é", "Item 1e\u{301}", "Item 1\u{212A}",
            "item\u{301} 1", "\u{212A}item 1", "Item 1 Zürich", "Item 1\u{FB01}", "e\u{301}", "e", "",
        ]
        let prefixes = ["item 1", "Item 1", "e", "ITEM", "item 1k"]
        let optionSets: [ComparisonOptions] = [[], .caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive]]
        for text in texts {
            for prefix in prefixes {
                for options in optionSets {
                    let expected: Int64 = StringMatching.beginsWith(text, prefix, options: options) ? 1 : 0
                    #expect(
                        try call(db, "cdqi_beginswith", text, prefix, options) == expected,
                        "\(text.debugDescription) BEGINSWITH \(prefix.debugDescription) \(options.rawValue)")
                }
            }
        }
    }

    @Test("operands that are not text never match, and NULL passes through cdqi_fold")
    func nonText() throws {
        let db = try connection()
        let statement = try db.prepare(
            "SELECT cdqi_beginswith(12, '1', 0), cdqi_like(NULL, '*', 0), cdqi_fold(NULL, 1) IS NULL, cdqi_fold(7, 1), cdqi_fold('ÉCOLE', 3)")
        #expect(try statement.step())
        #expect(statement.int64(0) == 0)
        #expect(statement.int64(1) == 0)
        #expect(statement.int64(2) == 1)
        #expect(statement.int64(3) == 7)
        #expect(statement.string(4) == "ecole")
    }

    @Test("collations order case-insensitively and by locale")
    func collations() throws {
        let db = try connection()
        try db.execute("CREATE TABLE t (name TEXT); INSERT INTO t VALUES ('b'), ('B'), ('a'), ('C'), ('file10'), ('file9')")
        func names(_ collation: String) throws -> [String] {
            let statement = try db.prepareUncached("SELECT name FROM t ORDER BY name COLLATE \(collation), rowid")
            var result: [String] = []
            while try statement.step() { result.append(statement.string(0)) }
            return result
        }
        #expect(try names("BINARY") == ["B", "C", "a", "b", "file10", "file9"])
        #expect(try names("cdqi_nocase") == ["a", "b", "B", "C", "file10", "file9"])
        #expect(try names("cdqi_localized_standard").suffix(2) == ["file9", "file10"])
    }

    @Test("the derived-attribute triggers of Apple stores can run")
    func appleTriggerFunctions() throws {
        let db = try connection()
        // The shape of Apple's trigger (coredata-sqlite-format.md §7.2), on a two-table miniature.
        try db.execute(
            """
            CREATE TABLE ZBOOK (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, ZPAGESCOUNT INTEGER, ZUPDATED TIMESTAMP);
            CREATE TABLE ZPAGE (Z_PK INTEGER PRIMARY KEY, ZBOOK INTEGER);
            CREATE TRIGGER Z_DA_ZPAGE_Book_pagesCount_PARAMETER_INSERT AFTER INSERT ON ZPAGE FOR EACH ROW WHEN (NEW.ZBOOK NOT NULL)
                BEGIN UPDATE ZBOOK SET ZPAGESCOUNT = IFNULL(ZPAGESCOUNT, 0) + 1, ZUPDATED = NSCoreDataNow() WHERE Z_PK = NEW.ZBOOK;
                SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('ZBOOK', Z_ENT, Z_PK, 'pagesCount', ZPAGESCOUNT) FROM ZBOOK WHERE Z_PK = NEW.ZBOOK; END;
            INSERT INTO ZBOOK (Z_PK, Z_ENT) VALUES (1, 1);
            INSERT INTO ZPAGE (Z_PK, ZBOOK) VALUES (1, 1), (2, 1);
            """)
        let statement = try db.prepare("SELECT ZPAGESCOUNT, ZUPDATED > 700000000 FROM ZBOOK")
        #expect(try statement.step())
        #expect(statement.int64(0) == 2)
        #expect(statement.int64(1) == 1)
    }

    @Test("cdqi_sum and cdqi_avg round exactly where SUM does not, and give NULL over no values")
    func exactAggregates() throws {
        let db = try connection()
        try db.execute("CREATE TABLE t (x REAL); INSERT INTO t VALUES (0.1), (0.2), (0.3), (NULL)")
        let statement = try db.prepare("SELECT cdqi_sum(x), SUM(x), cdqi_avg(x), (SELECT cdqi_sum(x) FROM t WHERE 0) IS NULL FROM t")
        #expect(try statement.step())
        #expect(statement.double(0) == 0.6)  // Python: math.fsum([0.1, 0.2, 0.3]) == 0.6
        #expect(statement.double(1) == 0.1 + 0.2 + 0.3)  // 0.6000000000000001, added in order
        #expect(statement.double(2) == 0.6 / 3)
        #expect(statement.int64(3) == 1)
    }
}
