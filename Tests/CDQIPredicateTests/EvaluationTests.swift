import CDQIPredicate
import Foundation
import Testing

@Suite("In-memory evaluation (§3)")
struct EvaluationTests {
    func holds(_ format: String, _ object: [String: Any] = [:], _ arguments: Any?...) throws -> Bool {
        try PredicateNode(format: format, argumentArray: arguments).evaluate(with: object)
    }

    func holds(_ format: String, value: PredicateValue) throws -> Bool {
        try PredicateNode(format: format).evaluate(withValue: value)
    }

    @Test func nilRules() throws {
        let none: [String: Any] = [:]
        #expect(try holds("x == nil", none))
        #expect(try !holds("x != nil", none))
        #expect(try holds("x <= nil", none))
        #expect(try holds("x >= nil", none))
        #expect(try !holds("x < nil", none))
        #expect(try !holds("x > ''", none))
        #expect(try !holds("x BETWEEN {nil, nil}", none))
        #expect(try !holds("x IN {nil}", none))
        #expect(try !holds("x LIKE '*'", none))
    }

    @Test func numbers() throws {
        #expect(try holds("1 == 1.0"))
        #expect(try holds("flag == 1", ["flag": true]))
        #expect(try holds("NO >= 0"))
        #expect(try !holds("SELF != NO", value: .scalar(.integer(0))))
        #expect(try !holds("9007199254740993 == 9007199254740992.0"))
        #expect(try holds("9007199254740993 > 9007199254740992.0"))
        #expect(try holds("price == 0.07", ["price": Decimal(string: "0.07")!]))
        #expect(try holds("'42' != 42"))
        #expect(try !holds("'42' == 42"))
        #expect(try !holds("startDate > 600000000", ["startDate": Date(timeIntervalSinceReferenceDate: 600739200)]))
    }

    @Test func collections() throws {
        #expect(try holds("{1, 2, 3} == $arr".replacingOccurrences(of: "$arr", with: "%@"), [:], [1, 2, 3]))
        #expect(try !holds("{1, 2, 3} == %@", [:], [1, 2, 3, 4]))
        #expect(try !holds("ANY {} BETWEEN {23, 50}"))
        #expect(try holds("ALL {} BETWEEN {23, 50}"))
        #expect(try holds("NONE {} BETWEEN {23, 50}"))
        #expect(try holds("'b' IN %@", [:], Set(["a", "b"])))
        #expect(try holds("'v' IN d", ["d": ["k": "v"]]))
        #expect(try !holds("'k' IN d", ["d": ["k": "v"]]))
        #expect(try holds("'ell' IN 'hello'"))
        #expect(try !holds("age BETWEEN {34, 28}", ["age": 30]))
        #expect(try holds("name BETWEEN {'b', 'z'}", ["name": "m"]))
    }

    @Test("IN against constants agrees with IN against computed collections")
    func inAgainstConstants() throws {
        let row: [String: Any] = ["tags": ["swift", "sql"], "name": "Ann", "pair": [1, 2]]
        #expect(try holds("ALL tags IN {'swift', 'sql'}", row))
        #expect(try !holds("ALL tags IN {'swift'}", row))
        #expect(try holds("ALL tags IN {'swift', name}", ["tags": ["swift", "Ann"], "name": "Ann"]))
        #expect(try holds("ANY tags IN[c] {'SQL'}", row))
        #expect(try !holds("ANY tags IN {}", row))
        #expect(try holds("ALL missing IN {'a'}", row))
        #expect(try !holds("ANY missing IN {'a'}", row))
        #expect(try holds("name IN %@", row, Set(["Ann"])))
        #expect(try holds("pair IN {{1, 2}}", row))
        #expect(try !holds("pair IN {{2, 1}}", row))
    }

    @Test func arithmetic() throws {
        #expect(try holds("SELF ** 2 * 2 == 72", value: .scalar(.integer(6))))
        #expect(try holds("(SELF / 2) * 2 <> SELF", value: .scalar(.integer(41))))
        #expect(try holds("average({1, 2, 2, 3, 4, 7, 9}) == 4"))
        #expect(try holds("sum({1, 2, 2, 3, 4, 7, 9}) == 28"))
        #expect(try holds("count({1, 2, 2, 3, 4, 7, 9}) == 7"))
        #expect(try holds("ceiling(-1.5) == -1 AND floor(-1.5) == -2 AND trunc(-1.5) == -1"))
        #expect(try holds("modulus:by:(-7, 2) == -1"))
        #expect(try holds("modulus:by:(5.5, 2) == 1.5"))
        #expect(try holds("modulus:by:(5, 0) == nil"))
        #expect(try holds("sqrt(-1) == nil"))
        #expect(try holds("9223372036854775807 + 1 == 9223372036854775808.0"))
        #expect(try holds("median({1, 2, 3, 4}) == 2.5"))
        #expect(try holds("mode({1, 2, 2, 3}) == {2}"))
        #expect(try holds("abs(stddev({1, 2, 3, 4, 5, 6, 7, 8}) - 2.29128784747792) < 0.0000001"))
        #expect(try holds("sum(%@) == 0.6", [:], [0.1, 0.2, 0.3]))
        #expect(try holds("x + 1 == nil", [:]))
        #expect(try holds("1 << 3 == 8 AND (6 & 3) == 2 AND (6 | 3) == 7 AND (6 ^ 3) == 5 AND ~0 == -1"))
        #expect(try holds("uppercase(name) == 'ÉCOLE'", ["name": "école"]))
        #expect(try holds("CAST(age, 'NSString') == '34'", ["age": 34]))
        #expect(try holds("CAST(d, 'NSString') == '2020-01-15 00:00:00 +0000'", ["d": Date(timeIntervalSinceReferenceDate: 600739200)]))
        #expect(try holds("CAST(CAST(d, 'NSNumber') + 86400, 'NSDate') > d", ["d": Date(timeIntervalSinceReferenceDate: 0)]))
        #expect(try holds("TERNARY(age > 40, 'senior', 'junior') == 'junior'", ["age": 34]))
        #expect(try holds("({1, 2} UNION {2, 3})[SIZE] == 3"))
        #expect(try holds("tags[1] == 'sql' AND tags[LAST] == 'sql'", ["tags": ["swift", "sql"]]))
        #expect(try holds("$x := 5 == 5 AND $x == 5"))
    }

    @Test func errorsNameTheKeyPath() throws {
        let fixture = Fixture()
        let unknown = try PredicateNode(format: "department.budget > 1")
        #expect(throws: PredicateEvaluationError.unknownKey(key: "budget", keyPath: "department.budget")) {
            try unknown.evaluate(with: fixture.alice)
        }
        let sumOfStrings = try PredicateNode(format: "employees.@sum.name > 1")
        #expect(throws: PredicateEvaluationError.typeMismatch(expression: "employees.@sum.name", reason: "@sum needs numbers")) {
            try sumOfStrings.evaluate(with: fixture.research)
        }
        let unbound = try PredicateNode(format: "FALSEPREDICATE AND $y == 1")
        #expect(throws: PredicateEvaluationError.unboundVariable("y")) { try unbound.evaluate(with: fixture.alice) }
        let strings = try PredicateNode(format: "name + 1 == 2")
        #expect(throws: PredicateEvaluationError.self) { try strings.evaluate(with: fixture.alice) }
        let uti = try PredicateNode(format: "name UTI-EQUALS 'public.image'")
        #expect(throws: PredicateEvaluationError.unsupported("'UTI-EQUALS'")) { try uti.evaluate(with: fixture.alice) }
        let index = try PredicateNode(format: "tags[5] == 'x'")
        #expect(throws: PredicateEvaluationError.indexOutOfRange(expression: "tags[5]")) { try index.evaluate(with: fixture.alice) }
        let overflow = try PredicateNode(format: "sum({9223372036854775807, 1}) > 0")
        #expect(throws: PredicateEvaluationError.integerOverflow(expression: "sum:({9223372036854775807, 1})")) {
            try overflow.evaluate(with: fixture.alice)
        }
    }

    /// ANY/SOME/ALL on a value that is not a collection are the plain comparison, NONE its negation; a
    /// nil value makes ANY false and ALL true (predicate-language.md §3.7).
    @Test func modifiersOnSingleValues() throws {
        let fixture = Fixture()
        func holds(_ format: String) throws -> Bool { try PredicateNode(format: format).evaluate(with: fixture.alice) }
        #expect(try holds("ANY name == 'Alice'"))
        #expect(try !holds("ANY name == 'x'"))
        #expect(try holds("SOME name BEGINSWITH[c] 'al'"))
        #expect(try holds("ALL age > 30"))
        #expect(try !holds("ALL age > 40"))
        #expect(try holds("NONE name == 'x'"))
        #expect(try !holds("NONE name == 'Alice'"))
        #expect(try holds("ANY age IN {34, 35}"))
        // Alice has no nickname: ANY false, ALL true, NONE true, whatever the comparison.
        #expect(try !holds("ANY nickname == nil"))
        #expect(try holds("ALL nickname == 'x'"))
        #expect(try holds("NONE nickname == nil"))
        // Through a to-one path (department is Research).
        #expect(try holds("ANY department.name == 'Research'"))
        // Inside a SUBQUERY, on the variable's attribute: Alice, Bob and Carol are in Research.
        #expect(try holds("SUBQUERY(department.employees, $v, SOME $v.name BEGINSWITH[c] 'a').@count == 1"))
    }

    @Test func objectsAndIDs() throws {
        let fixture = Fixture()
        #expect(try PredicateNode(format: "department == %@", StoredValue.null).evaluate(with: fixture.alice) == false)
        // The fixture's Employee has no object ID, so it cannot become a constant.
        #expect(throws: PredicateParseError.self) { try PredicateNode(format: "SELF == %@", fixture.bob) }
        let id = ObjectReference(entityName: "Employee", storeIdentifier: "S", identity: .primaryKey(7))
        let row: [String: Any] = ["owner": id]
        #expect(try PredicateNode(format: "owner == %@", id).evaluate(with: row))
        #expect(ObjectReference(uriString: id.uriString) == id)
        #expect(id.uriString == "x-coredata://S/Employee/p7")
    }

    @Test("the speed predicate evaluates as expected")
    func speedPredicate() throws {
        let p = try PredicateNode(
            format: "(salary > %@) AND (department.name BEGINSWITH[cd] %@) AND ANY languages.name IN %@",
            100_000, "RÉS", ["Swift", "Go"])
        let lang: [String: Any] = ["name": "Swift"]
        let object: [String: Any] = ["salary": 120_000, "department": ["name": "Research"], "languages": [lang]]
        #expect(try p.evaluate(with: object))
        let other: [String: Any] = ["salary": 90_000, "department": ["name": "Research"], "languages": [lang]]
        #expect(try !p.evaluate(with: other))
    }
}
