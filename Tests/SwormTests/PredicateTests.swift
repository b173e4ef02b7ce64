import Foundation
import Sworm
import Testing

/// The predicate text Sworm builds (equal to upstream's, character for character) and what the
/// predicates select in a store. Expected rows are worked out by hand.
@Suite struct PredicateTests {
    @Test func typedAndRawPredicatesCombine() {
        let predicate =
            (\PredicateABCD.a == 1 || \PredicateABCD.a == 2) && (\PredicateABCD.b == 3 || \PredicateABCD.a == 4) && !"foo.bar"
        #expect(predicate.predicateDescriptor.query == "(((a == %@) OR (a == %@)) AND ((b == %@) OR (a == %@))) AND (NOT (foo.bar))")
        #expect(predicate.predicateDescriptor.args.map { $0 as? Int } == [1, 2, 3, 4])
    }

    @Test func everyOperatorPrintsAsUpstream() {
        #expect((\PredicateABCD.a == 1).predicateDescriptor.query == "a == %@")
        #expect((\PredicateABCD.a != 1).predicateDescriptor.query == "a != %@")
        #expect((\PredicateABCD.a > 1).predicateDescriptor.query == "a > %@")
        #expect((\PredicateABCD.a < 1).predicateDescriptor.query == "a < %@")
        #expect((\PredicateABCD.a >= 1).predicateDescriptor.query == "a >= %@")
        #expect((\PredicateABCD.a <= 1).predicateDescriptor.query == "a <= %@")
        #expect((\PredicateABCD.a === [1, 2]).predicateDescriptor.query == "a IN %@")
        #expect((\PredicateABCD.c === ["x", nil]).predicateDescriptor.query == "c IN %@")
        #expect((\PredicateABCD.c == nil).predicateDescriptor.query == "c == %@")
        #expect((\PredicateABCD.c != "x").predicateDescriptor.query == "c != %@")
        #expect((\PredicateABCD.c > "x").predicateDescriptor.query == "c > %@")
        #expect(Query.not(\PredicateABCD.a == 1).predicateDescriptor.query == "NOT (a == %@)")
        #expect(Query.and("x", "y").predicateDescriptor.query == "(x) AND (y)")
        #expect(Query.or("x", "y").predicateDescriptor.query == "(x) OR (y)")
        #expect("foo.bar".predicateDescriptor.query == "foo.bar")
        #expect("foo.bar".predicateDescriptor.args.isEmpty)
    }

    @Test func textQueriesAreCaseAndDiacriticInsensitiveByDefault() {
        #expect(Query.beginsWith(\PredicateABCD.c, "foo").predicateDescriptor.query == "c BEGINSWITH[cd] %@")
        #expect(Query.endsWith(\PredicateABCD.c, "foo").predicateDescriptor.query == "c ENDSWITH[cd] %@")
        #expect(Query.contains(\PredicateABCD.c, "foo").predicateDescriptor.query == "c CONTAINS[cd] %@")
        #expect(Query.contains(\PredicateABCD.c, "foo", caseInsensitive: false).predicateDescriptor.query == "c CONTAINS %@")
        #expect(Query.beginsWith(\T.name, "x", caseInsensitive: false).predicateDescriptor.query == "name BEGINSWITH %@")
    }

    @Test func argumentsAreThePrimitives() {
        // An enumeration compares as its raw value; nil as no value; IN takes the list.
        #expect((\PredicateABCD.d == .bar).predicateDescriptor.args.first as? String == "bar")
        let none = (\PredicateABCD.c == nil).predicateDescriptor.args
        #expect(none.count == 1)
        #expect("\(none[0])" == "nil")
        #expect((\PredicateABCD.a === [1, 2]).predicateDescriptor.args.first as? [Int] == [1, 2])
    }

    private func insert(_ rows: [PredicateABCD]) throws -> PersistentContainer {
        let db = try TestStores.sworm(FixtureModels.predicates)
        try db.perform { ctx in
            for row in rows { try ctx.insert(row) }
        }
        return db
    }

    private func fetch(_ db: PersistentContainer, _ predicate: Sworm.Predicate) throws -> [PredicateABCD] {
        try db.perform { ctx in try ctx.fetch(PredicateABCD.all.where(predicate).sort(\.a)).map { try $0.decode() } }
    }

    @Test func equalityAndComparison() throws {
        let db = try insert([
            PredicateABCD(a: 10, b: 20), PredicateABCD(a: 30, b: 40), PredicateABCD(a: 50, b: 60),
            PredicateABCD(a: 70, b: 80), PredicateABCD(a: 90, b: 100),
        ])
        // (a < 50 and b > 20): (30, 40); or b >= 100: (90, 100).
        #expect(
            try fetch(db, \PredicateABCD.a < 50 && \PredicateABCD.b > 20 || \PredicateABCD.b >= 100)
                == [PredicateABCD(a: 30, b: 40), PredicateABCD(a: 90, b: 100)])
        #expect(
            try fetch(db, (\PredicateABCD.a < 50 && \PredicateABCD.b > 20 || \PredicateABCD.b >= 100) && \PredicateABCD.b != 40)
                == [PredicateABCD(a: 90, b: 100)])
        #expect(try fetch(db, \PredicateABCD.a <= 30).map(\.a) == [10, 30])
        #expect(try fetch(db, \PredicateABCD.a === [10, 70, 71]).map(\.a) == [10, 70])
        #expect(try fetch(db, \PredicateABCD.a > 90).isEmpty)
    }

    @Test func nilComparisons() throws {
        let db = try insert([
            PredicateABCD(a: 10, b: 20, c: nil), PredicateABCD(a: 30, b: 40, c: "foo"),
            PredicateABCD(a: 50, b: 60, c: nil), PredicateABCD(a: 70, b: 80, c: "bar"),
        ])
        #expect(try fetch(db, \PredicateABCD.c != nil && \PredicateABCD.a > 30) == [PredicateABCD(a: 70, b: 80, c: "bar")])
        #expect(try fetch(db, \PredicateABCD.c == nil && \PredicateABCD.a < 50) == [PredicateABCD(a: 10, b: 20, c: nil)])
    }

    @Test func enumerationsCompareByRawValue() throws {
        let db = try insert([
            PredicateABCD(a: 1, d: .foo), PredicateABCD(a: 2, d: .bar), PredicateABCD(a: 3, d: .bar), PredicateABCD(a: 4, d: nil),
        ])
        #expect(try fetch(db, \PredicateABCD.d == .bar).map(\.a) == [2, 3])
        #expect(try fetch(db, \PredicateABCD.d != .bar || \PredicateABCD.d == nil).map(\.a) == [1, 4])
        #expect(try fetch(db, \PredicateABCD.d === [.foo, .bar]).map(\.a) == [1, 2, 3])
    }

    @Test func textQueries() throws {
        let db = try insert([
            PredicateABCD(a: 1, c: "fOo1baR"), PredicateABCD(a: 2, c: "foO2bAr"), PredicateABCD(a: 3, c: "xfoo"),
            PredicateABCD(a: 4, c: "bär"),
        ])
        #expect(try fetch(db, Query.beginsWith(\PredicateABCD.c, "foo")).map(\.c) == ["fOo1baR", "foO2bAr"])
        #expect(try fetch(db, Query.beginsWith(\PredicateABCD.c, "foO", caseInsensitive: false)).map(\.c) == ["foO2bAr"])
        // [cd]: "bär" ends with "BAR" too.
        #expect(try fetch(db, Query.endsWith(\PredicateABCD.c, "BAR")).map(\.a) == [1, 2, 4])
        #expect(try fetch(db, Query.contains(\PredicateABCD.c, "O2")).map(\.a) == [2])
        #expect(try fetch(db, Query.contains(\PredicateABCD.c, "foo") && !Query.beginsWith(\PredicateABCD.c, "f")).map(\.a) == [3])
    }

    @Test func uuidAndURLQueries() throws {
        let ids = [UUID(), UUID(), UUID()]
        let urls = [URL(string: "https://xyz.com"), URL(string: "https://abc.com"), nil]
        let db = try TestStores.sworm(FixtureModels.predicates)
        try db.perform { ctx in
            for index in 0..<3 { try ctx.insert(PredicateIDURL(id: ids[index], url: urls[index])) }
        }
        let byID = try db.perform { ctx in
            try ctx.fetch(PredicateIDURL.all.where(\PredicateIDURL.id === [ids[0], ids[2]]), \.id)
        }
        #expect(Set(byID) == [ids[0], ids[2]])
        let byURL = try db.perform { ctx in
            try ctx.fetch(PredicateIDURL.all.where(\PredicateIDURL.url == URL(string: "https://abc.com")), \.id)
        }
        #expect(byURL == [ids[1]])
        let withoutURL = try db.perform { ctx in
            try ctx.fetch(PredicateIDURL.all.where(\PredicateIDURL.url == nil), \.id)
        }
        #expect(withoutURL == [ids[2]])
    }
}
