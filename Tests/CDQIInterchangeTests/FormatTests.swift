import CDQIInterchange
import CDQIPredicate
import Foundation
import Testing

/// The JSON reader and writer, ISO 8601 dates, and the three output formats, against hand-written text.
@Suite struct FormatTests {
    static let table = ResultTable(
        columns: ["name", "note", "n"],
        rows: [
            [.string("Ann"), .string("say \"hi\", ok"), .integer(1)],
            [.string("Bob"), .null, .integer(22)],
            [.string("Cé"), .string("a\nb"), .integer(-3)],
        ])

    @Test func tableAlignsColumns() {
        // Widths: name 4 ("name"), note 12 (`say "hi", ok`), n 2; two spaces between; no trailing spaces.
        #expect(
            ResultFormat.table.render(Self.table) == """
                name  note          n
                ----  ------------  --
                Ann   say "hi", ok  1
                Bob   NULL          22
                Cé    a\\nb          -3

                """)
    }

    @Test func csvQuotesAsRFC4180Says() {
        #expect(
            ResultFormat.csv.render(Self.table)
                == "name,note,n\r\nAnn,\"say \"\"hi\"\", ok\",1\r\nBob,,22\r\nCé,\"a\nb\",-3\r\n")
    }

    @Test func jsonIsAnArrayOfObjects() {
        #expect(
            ResultFormat.json.render(Self.table) == """
                [
                  {"name": "Ann", "note": "say \\"hi\\", ok", "n": 1},
                  {"name": "Bob", "note": null, "n": 22},
                  {"name": "Cé", "note": "a\\nb", "n": -3}
                ]

                """)
        #expect(ResultFormat.json.render(ResultTable(columns: ["a"], rows: [])) == "[]\n")
    }

    @Test func valuesAsText() {
        #expect(StoredValue.bool(true).interchangeText == "true")
        #expect(StoredValue.double(0.1).interchangeText == "0.1")
        #expect(StoredValue.double(.infinity).interchangeJSON == .string("Infinity"))
        #expect(StoredValue.data(Data([0, 1, 2, 255])).interchangeText == "AAEC/w==")
        #expect(StoredValue.date(secondsSinceReferenceDate: 0).interchangeText == "2001-01-01T00:00:00Z")
        #expect(
            StoredValue.objectID(ObjectReference(entityName: "Employee", storeIdentifier: "X", identity: .primaryKey(3)))
                .interchangeText == "Employee/3")
    }

    @Test func jsonParserKeepsOrderAndNumberText() throws {
        let value = try JSONParser.parse(#"{"b": 1, "a": [12345678901234567890, -0.10, 1e-7, true, null, "x\u00e9\ud83d\ude00\n"]}"#)
        #expect(
            value
                == .object([
                    ("b", .number("1")),
                    ("a", .array([.number("12345678901234567890"), .number("-0.10"), .number("1e-7"), .bool(true), .null, .string("xé😀\n")])),
                ]))
    }

    /// JSON texts the parsers refuse, each with the message of its error (`StreamReaderTests` adds more).
    static let refusedJSON: [(String, String)] = [
        ("{\"a\": 1, \"a\": 2}", "line 1, column 10: the key \"a\" appears twice in this object"),
        ("[1,]", "line 1, column 4: unexpected character; expected a value"),
        ("[01]", "line 1, column 3: a number cannot start with 0 followed by a digit"),
        ("\"\\ud800\"", "line 1, column 2: a high surrogate (\\ud800) must be followed by a low one"),
        ("[1]\n x", "line 2, column 2: unexpected text after the document's value"),
        ("\"tab\there\"", "line 1, column 5: a control character must be escaped in a string"),
        ("[True]", "line 1, column 2: unexpected character; expected a value"),
        ("", "line 1, column 1: unexpected end of the document; expected a value"),
    ]

    @Test(arguments: refusedJSON)
    func jsonParserRefuses(text: String, message: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
        do {
            _ = try JSONParser.parse(text)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(deep) }
    }

    @Test func writerEscapesOnlyWhatJSONRequires() {
        #expect(JSONWriter.quoted("a\"b\\c\u{01}é\t") == #""a\"b\\c\u0001é\t""#)
    }

    @Test(arguments: [
        // 2001-01-01 is Core Data's reference date.
        ("2001-01-01T00:00:00Z", 0.0),
        ("2001-01-01", 0.0),
        ("2001-01-01T01:00:00+01:00", 0.0),
        ("2000-12-31T19:00:00-0500", 0.0),
        // 1970-01-01 is 978307200 seconds earlier (31 years, 8 of them leap: 11323 days).
        ("1970-01-01T00:00:00Z", -978_307_200.0),
        // 2020-02-29: 6998 days after the reference date (see StoreQueryTests), plus 12.5 hours.
        ("2020-02-29T12:00:00.5Z", 604_670_400.5),
        ("2001-01-02T00:00:01.25Z", 86_401.25),
    ])
    func datesParse(text: String, seconds: Double) {
        #expect(DateText.parse(text) == seconds)
    }

    @Test(arguments: ["2023-02-29", "2020-13-01", "2020-01-01T24:00:00Z", "2020-01-01T10:00:00", "2020-1-01", "20200101", "2020-01-01T10:00:00Zjunk"])
    func impossibleDatesAreRefused(text: String) {
        #expect(DateText.parse(text) == nil)
    }

    @Test func datesFormat() {
        #expect(DateText.format(secondsSinceReferenceDate: 604_670_400.5) == "2020-02-29T12:00:00.5Z")
        #expect(DateText.format(secondsSinceReferenceDate: -978_307_200) == "1970-01-01T00:00:00Z")
        #expect(DateText.format(secondsSinceReferenceDate: 0.000001) == "2001-01-01T00:00:00.000001Z")
        #expect(DateText.format(secondsSinceReferenceDate: .nan) == nil)
    }
}
