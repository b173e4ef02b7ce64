import Foundation
import Testing

/// Moving data between the two stores with the tools: `cdqi export` from a SQLite file, `cdqi import`
/// into a PostgreSQL schema, `cdqi export` from it (byte for byte the first export), `cdqi import` into
/// a new SQLite file and `cdqi export` again (the same bytes once more).
@Suite(.enabled(if: PostgresTestSchema.isAvailable, "CDQI_POSTGRES_URL is not set (bin/postgres-cluster start)"))
struct PostgresRoundTripTests {
    static func fixture(_ name: String) -> String {
        CommandRunner.packageRoot.appendingPathComponent("Fixtures/\(name).xcdatamodeld").path
    }

    /// Company: every attribute type (TestEntity), a to-one and its to-many (Employee ↔ Department),
    /// and text that is hard to carry (quotes, backslashes, line breaks, non-ASCII).
    static let company: String = {
        var employees: [String] = []
        for index in 0..<24 {
            let department = index % 5 == 4 ? "null" : "\"d\(index % 3)\""
            let nick = index % 2 == 0 ? "\"Nick \\\"\(index)\\\"\"" : "null"
            let hired =
                index % 4 == 0
                ? "null" : "\"20\(10 + index % 10)-0\(1 + index % 9)-1\(index % 10)T0\(index % 10):30:0\(index % 7).\(index % 3 == 0 ? "125" : "5")Z\""
            employees.append(
                "{\"_id\": \"e\(index)\", \"firstName\": \"Émile \(index)\", \"lastName\": \"O'Neil\\\\\(index)\\nx\", \"salary\": \(index * 1_000 - 3_000), \"nickName\": \(nick), \"hireDate\": \(hired), \"department\": \(department)}"
            )
        }
        let tests = [
            #"{"_id": "t0", "binary": "AAEC/w==", "boolean": true, "date": "2001-01-01T00:00:00Z", "decimal": "12345.6789", "double": 0.1, "float": 1.5, "integer16": -32768, "integer32": 2147483647, "integer64": -9223372036854775808, "string": "tab\there 😀", "transformable": "YnBsaXN0MDA=", "uri": "https://example.com/a?b=c#d", "uuid": "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0"}"#,
            #"{"_id": "t1", "boolean": false, "date": "1969-07-20T20:17:40Z", "decimal": "-0.5", "double": -1.0e300, "float": -3.25, "integer16": 32767, "integer32": -2147483648, "integer64": 9223372036854775807, "string": ""}"#,
            #"{"_id": "t2"}"#,
        ]
        return """
            {"Department": [{"_id": "d0", "name": "Sales", "budget": "1000.25"}, {"_id": "d1", "name": "R&D, \\"Labs\\""}, {"_id": "d2", "name": "Ops"}],
             "Employee": [\(employees.joined(separator: ",\n"))],
             "TestEntity": [\(tests.joined(separator: ",\n"))]}
            """
    }()

    /// Library 2: sub-entities (Item → Media → Album, Item → Book), an ordered to-many (Shelf.items)
    /// and a many-to-many (Item.tags ↔ Tag.items).
    ///
    /// The lists are in the order an export writes them (the model's), so that the source store's keys
    /// are those any import of its export gives: an import numbers one hierarchy's objects in document
    /// order, and an export lists them entity by entity, so a store whose Item keys interleave Album,
    /// Book and Media objects differently is renumbered by export → import, SQLite to SQLite too.
    static let library = #"""
        {"Album": [{"_id": "a0", "title": "Kind of Blue", "createdAt": "2020-01-01T00:00:00Z", "trackCount": 5, "duration": 2755.5, "tags": ["t0", "t1"]},
                   {"_id": "a1", "title": "Blue Train", "createdAt": "2020-01-02T00:00:00Z", "trackCount": 999, "tags": ["t0"]}],
         "Book": [{"_id": "b0", "title": "Dune", "createdAt": "2019-03-04T00:00:00Z", "isbn": "9780441013593", "tags": ["t1", "t2"]},
                  {"_id": "b1", "title": "Solaris", "createdAt": "2019-03-05T00:00:00Z", "isbn": "015602760X", "tags": ["t2"]}],
         "Media": [{"_id": "m0", "title": "A tape", "createdAt": "2021-06-07T08:09:10.5Z", "tags": ["t2"]}],
         "Shelf": [{"_id": "s0", "name": "Top", "lastReviewedAt": "2024-02-03T04:05:06Z", "items": ["b1", "a0", "m0", "b0"]},
                   {"_id": "s1", "name": "Bottom", "items": ["a1"]}],
         "Tag": [{"_id": "t0", "name": "Jazz"}, {"_id": "t1", "name": "Rare"}, {"_id": "t2", "name": "Old"}]}
        """#

    /// Developers: two many-to-many relationships and a to-one with its to-many (in export order).
    static let developers = #"""
        {"Developer": [{"_id": "ann", "firstName": "Ann", "lastName": "Lee", "languages": ["swift", "c"]},
                       {"_id": "bob", "firstName": "Bob", "lastName": "Ames", "nickName": "B", "languages": ["c"]},
                       {"_id": "cy", "firstName": "Cy", "lastName": "Coe"}],
         "Language": [{"_id": "swift", "name": "Swift"}, {"_id": "c", "name": "C"}],
         "Project": [{"_id": "p0", "name": "Compiler", "deadline": "2030-12-31T23:59:59Z", "lead": "ann", "members": ["ann", "bob"]},
                     {"_id": "p1", "name": "Docs", "members": ["cy", "ann"]}]}
        """#

    /// The three exports of the round trip of `document` through `model`, after checking each step.
    private func roundTrip(_ document: String, model: String, summary: String) throws -> (sqlite: String, postgres: String, back: String) {
        let folder = try TemporaryFolder()
        let schema = try PostgresTestSchema()
        let source = folder.url.appendingPathComponent("source.json")
        try Data(document.utf8).write(to: source)
        let first = folder.url.appendingPathComponent("first.sqlite").path
        let again = folder.url.appendingPathComponent("again.sqlite").path
        func run(_ arguments: [String]) throws -> CommandRunner.Output {
            let output = try CommandRunner.run(arguments)
            #expect(output.status == 0, "\(arguments): \(output.standardError)")
            return output
        }
        #expect(try run(["import", model, first, source.path]).standardOutput == "imported \(summary)\n")
        let fromSQLite = folder.url.appendingPathComponent("from-sqlite.json").path
        _ = try run(["export", model, first, "-o", fromSQLite])
        #expect(try run(["import", model, schema.url, fromSQLite]).standardOutput == "imported \(summary)\n")
        let fromPostgres = folder.url.appendingPathComponent("from-postgres.json").path
        _ = try run(["export", model, schema.url, "-o", fromPostgres])
        #expect(try run(["import", model, again, fromPostgres]).standardOutput == "imported \(summary)\n")
        let back = try run(["export", model, again]).standardOutput
        return (
            try #require(folder.contents("from-sqlite.json")), try #require(folder.contents("from-postgres.json")), back
        )
    }

    @Test func companyWithEveryAttributeTypeRoundTripsByteForByte() throws {
        let exports = try roundTrip(
            Self.company, model: Self.fixture("Company"), summary: "30 objects: 3 Department, 24 Employee, 3 TestEntity")
        #expect(exports.postgres == exports.sqlite)
        #expect(exports.back == exports.sqlite)
        // Values worked out from the document: the extremes and the exact decimal survive both stores.
        #expect(exports.sqlite.contains(#""integer64": -9223372036854775808"#))
        #expect(exports.sqlite.contains(#""integer64": 9223372036854775807"#))
        #expect(exports.sqlite.contains(#""decimal": "12345.6789""#))
        #expect(exports.sqlite.contains(#""binary": "AAEC/w==""#))
        #expect(exports.sqlite.contains(#""uuid": "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0""#))
        #expect(exports.sqlite.contains(#"{"_id": "TestEntity/3", "binary": null, "boolean": null, "date": null"#))
        // d0 is Department/1 and holds e0, e3, e6, …, e21 except e4/e9/e14/e19 (no department): 0, 3, 6, 12, 15, 18, 21.
        #expect(
            exports.sqlite.contains(
                #""employees": ["Employee/1", "Employee/4", "Employee/7", "Employee/13", "Employee/16", "Employee/19", "Employee/22"]"#))
    }

    @Test func libraryWithSubentitiesAndAManyToManyRoundTripsByteForByte() throws {
        let exports = try roundTrip(
            Self.library, model: Self.fixture("Library"), summary: "10 objects: 2 Album, 2 Book, 1 Media, 2 Shelf, 3 Tag")
        #expect(exports.postgres == exports.sqlite)
        #expect(exports.back == exports.sqlite)
        // Items share Item's keys in insertion order: a0 1, a1 2, b0 3, b1 4, m0 5; the ordered
        // relationship keeps the document's order.
        #expect(exports.sqlite.contains(#""items": ["Book/4", "Album/1", "Media/5", "Book/3"]"#), "\(exports.sqlite)")
        #expect(exports.sqlite.contains(#"{"_id": "Tag/2", "name": "Rare", "items": ["Album/1", "Book/3"]}"#), "\(exports.sqlite)")
    }

    @Test func developersWithTwoManyToManysRoundTripsByteForByte() throws {
        let exports = try roundTrip(
            Self.developers, model: Self.fixture("Developers"), summary: "7 objects: 3 Developer, 2 Language, 2 Project")
        #expect(exports.postgres == exports.sqlite)
        #expect(exports.back == exports.sqlite)
        #expect(exports.sqlite.contains(#""members": ["Developer/1", "Developer/3"]"#), "\(exports.sqlite)")
    }
}
