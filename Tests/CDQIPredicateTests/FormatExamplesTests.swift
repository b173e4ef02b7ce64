import CDQIPredicate
import Foundation
import Testing

/// predicate-language.md §6.2: format string (+ arguments) → AST → printed form. Trees and printed
/// forms are transcribed from the reference table, not from the code's output.
struct FormatExample: Sendable, CustomTestStringConvertible {
    var number: Int
    var format: String
    var arguments: [ExampleArgument] = []
    var tree: PredicateNode
    var printed: String
    var testDescription: String { "§6.2 #\(number): \(format)" }
}

/// Sendable stand-ins for the arguments of the table.
enum ExampleArgument: Sendable {
    case none, string(String), strings([String]), ints([Int]), date(Date)
    var value: Any? {
        switch self {
        case .none: return nil
        case .string(let s): return s
        case .strings(let s): return s
        case .ints(let i): return i
        case .date(let d): return d
        }
    }
}

let formatExamples: [FormatExample] = [
    .init(number: 1, format: "TRUEPREDICATE", tree: .truePredicate, printed: "TRUEPREDICATE"),
    .init(number: 2, format: "falsepredicate", tree: .falsePredicate, printed: "FALSEPREDICATE"),
    .init(number: 3, format: "name == 'Alice'", tree: cmp(.equalTo, key("name"), str("Alice")), printed: "name == \"Alice\""),
    .init(number: 4, format: "name = \"Alice\"", tree: cmp(.equalTo, key("name"), str("Alice")), printed: "name == \"Alice\""),
    .init(number: 5, format: "age >= 18", tree: cmp(.greaterThanOrEqual, key("age"), int(18)), printed: "age >= 18"),
    .init(number: 6, format: "age => 18", tree: cmp(.greaterThanOrEqual, key("age"), int(18)), printed: "age >= 18"),
    .init(number: 7, format: "age =< 65", tree: cmp(.lessThanOrEqual, key("age"), int(65)), printed: "age <= 65"),
    .init(number: 8, format: "age <> 30", tree: cmp(.notEqualTo, key("age"), int(30)), printed: "age != 30"),
    .init(number: 9, format: "flag == YES", tree: cmp(.equalTo, key("flag"), bool(true)), printed: "flag == 1"),
    .init(number: 10, format: "nickname == nil", tree: cmp(.equalTo, key("nickname"), nilConstant), printed: "nickname == nil"),
    .init(number: 11, format: "nickname = NULL", tree: cmp(.equalTo, key("nickname"), nilConstant), printed: "nickname == nil"),
    .init(number: 12, format: "name == %@", arguments: [.none], tree: cmp(.equalTo, key("name"), nilConstant), printed: "name == nil"),
    .init(
        number: 13, format: "%K == %@", arguments: [.string("department.name"), .string("R&D")],
        tree: cmp(.equalTo, key("department.name"), str("R&D")), printed: "department.name == \"R&D\""),
    .init(
        number: 14, format: "%K like %@", arguments: [.string("firstName"), .string("Adam")],
        tree: cmp(.like, key("firstName"), str("Adam")), printed: "firstName LIKE \"Adam\""),
    .init(
        number: 15, format: "%@ like %@", arguments: [.string("firstName"), .string("Adam")],
        tree: cmp(.like, str("firstName"), str("Adam")), printed: "\"firstName\" LIKE \"Adam\""),
    .init(
        number: 16, format: "'%K' like '%@'", arguments: [.string("unused")],
        tree: cmp(.like, str("%K"), str("%@")), printed: "\"%K\" LIKE \"%@\""),
    .init(number: 17, format: "name ==[c] 'alice'", tree: cmp(.equalTo, c, key("name"), str("alice")), printed: "name ==[c] \"alice\""),
    .init(number: 18, format: "name LIKE[cd] 'ca*'", tree: cmp(.like, cd, key("name"), str("ca*")), printed: "name LIKE[cd] \"ca*\""),
    .init(
        number: 19, format: "SELF like[c] 'prefix*suffix'", tree: cmp(.like, c, selfExpr, str("prefix*suffix")),
        printed: "SELF LIKE[c] \"prefix*suffix\""),
    .init(
        number: 20, format: "name BEGINSWITH[dc] 'é'", tree: cmp(.beginsWith, cd, key("name"), str("é")),
        printed: "name BEGINSWITH[cd] \"é\""),
    .init(number: 21, format: "name MATCHES '^A.*e$'", tree: cmp(.matches, key("name"), str("^A.*e$")), printed: "name MATCHES \"^A.*e$\""),
    .init(
        number: 22, format: "code CONTAINS[n] 'abc'", tree: cmp(.contains, .normalized, key("code"), str("abc")),
        printed: "code CONTAINS[n] \"abc\""),
    .init(number: 23, format: "name ENDSWITH 'it\\'s'", tree: cmp(.endsWith, key("name"), str("it's")), printed: "name ENDSWITH \"it's\""),
    .init(
        number: 24, format: "note == \"say \\\"hi\\\"\"", tree: cmp(.equalTo, key("note"), str("say \"hi\"")),
        printed: "note == \"say \\\"hi\\\"\""),
    .init(number: 25, format: "age BETWEEN {18, 65}", tree: cmp(.between, key("age"), agg(int(18), int(65))), printed: "age BETWEEN {18, 65}"),
    .init(
        number: 26, format: "age BETWEEN %@", arguments: [.ints([18, 65])], tree: cmp(.between, key("age"), const(int(18), int(65))),
        printed: "age BETWEEN {18, 65}"),
    .init(
        number: 27, format: "name IN {'Ann', 'Bob'}", tree: cmp(.in, key("name"), agg(str("Ann"), str("Bob"))),
        printed: "name IN {\"Ann\", \"Bob\"}"),
    .init(
        number: 28, format: "name IN %@", arguments: [.strings(["Ann", "Bob"])], tree: cmp(.in, key("name"), const(str("Ann"), str("Bob"))),
        printed: "name IN {\"Ann\", \"Bob\"}"),
    .init(number: 29, format: "NOT name IN {'Ann'}", tree: NOT(cmp(.in, key("name"), agg(str("Ann")))), printed: "NOT name IN {\"Ann\"}"),
    .init(number: 30, format: "'x' IN name", tree: cmp(.in, str("x"), key("name")), printed: "\"x\" IN name"),
    .init(number: 31, format: "tags CONTAINS 'swift'", tree: cmp(.contains, key("tags"), str("swift")), printed: "tags CONTAINS \"swift\""),
    .init(
        number: 32, format: "{'b', 'c'} CONTAINS a", tree: cmp(.contains, agg(str("b"), str("c")), key("a")),
        printed: "{\"b\", \"c\"} CONTAINS a"),
    .init(
        number: 33, format: "ANY employees.salary > 100000", tree: anyCmp(.greaterThan, key("employees.salary"), int(100000)),
        printed: "ANY employees.salary > 100000"),
    .init(
        number: 34, format: "SOME employees.salary > 100000", tree: anyCmp(.greaterThan, key("employees.salary"), int(100000)),
        printed: "ANY employees.salary > 100000"),
    .init(
        number: 35, format: "ALL employees.age >= 18", tree: allCmp(.greaterThanOrEqual, key("employees.age"), int(18)),
        printed: "ALL employees.age >= 18"),
    .init(
        number: 36, format: "NONE employees.age < 18", tree: NOT(anyCmp(.lessThan, key("employees.age"), int(18))),
        printed: "NOT ANY employees.age < 18"),
    .init(
        number: 37, format: "ANY tags IN {'a', 'b'}", tree: anyCmp(.in, key("tags"), agg(str("a"), str("b"))),
        printed: "ANY tags IN {\"a\", \"b\"}"),
    .init(number: 38, format: "NOT name == 'x'", tree: NOT(cmp(.equalTo, key("name"), str("x"))), printed: "NOT name == \"x\""),
    .init(number: 39, format: "!(age < 18)", tree: NOT(cmp(.lessThan, key("age"), int(18))), printed: "NOT age < 18"),
    .init(
        number: 40, format: "NOT (a == 1 AND b == 2)", tree: NOT(AND(cmp(.equalTo, key("a"), int(1)), cmp(.equalTo, key("b"), int(2)))),
        printed: "NOT (a == 1 AND b == 2)"),
    .init(
        number: 41, format: "NOT a == 1 AND b == 2", tree: AND(NOT(cmp(.equalTo, key("a"), int(1))), cmp(.equalTo, key("b"), int(2))),
        printed: "(NOT a == 1) AND b == 2"),
    .init(
        number: 42, format: "a == 1 OR b == 2 AND c == 3",
        tree: OR(cmp(.equalTo, key("a"), int(1)), AND(cmp(.equalTo, key("b"), int(2)), cmp(.equalTo, key("c"), int(3)))),
        printed: "a == 1 OR (b == 2 AND c == 3)"),
    .init(
        number: 43, format: "(a == 1 OR b == 2) AND c == 3",
        tree: AND(OR(cmp(.equalTo, key("a"), int(1)), cmp(.equalTo, key("b"), int(2))), cmp(.equalTo, key("c"), int(3))),
        printed: "(a == 1 OR b == 2) AND c == 3"),
    .init(
        number: 44, format: "a == 1 AND b == 2 AND c == 3",
        tree: AND(cmp(.equalTo, key("a"), int(1)), cmp(.equalTo, key("b"), int(2)), cmp(.equalTo, key("c"), int(3))),
        printed: "a == 1 AND b == 2 AND c == 3"),
    .init(
        number: 45, format: "(a == 1 AND b == 2) AND c == 3",
        tree: AND(AND(cmp(.equalTo, key("a"), int(1)), cmp(.equalTo, key("b"), int(2))), cmp(.equalTo, key("c"), int(3))),
        printed: "(a == 1 AND b == 2) AND c == 3"),
    .init(
        number: 46, format: "a == 1 && (b == 2 || c == 3)",
        tree: AND(cmp(.equalTo, key("a"), int(1)), OR(cmp(.equalTo, key("b"), int(2)), cmp(.equalTo, key("c"), int(3)))),
        printed: "a == 1 AND (b == 2 OR c == 3)"),
    .init(number: 47, format: "NOT NOT a == 1", tree: NOT(NOT(cmp(.equalTo, key("a"), int(1)))), printed: "NOT (NOT a == 1)"),
    .init(
        number: 48, format: "(1 < 0) || TRUEPREDICATE", tree: OR(cmp(.lessThan, int(1), int(0)), .truePredicate),
        printed: "1 < 0 OR TRUEPREDICATE"),
    .init(number: 49, format: "employees.@count == 0", tree: cmp(.equalTo, key("employees.@count"), int(0)), printed: "employees.@count == 0"),
    .init(
        number: 50, format: "employees.@avg.salary > 50000", tree: cmp(.greaterThan, key("employees.@avg.salary"), int(50000)),
        printed: "employees.@avg.salary > 50000"),
    .init(
        number: 51, format: "@sum.items.price < 1000", tree: cmp(.lessThan, key("@sum.items.price"), int(1000)),
        printed: "@sum.items.price < 1000"),
    .init(
        number: 52, format: "SUBQUERY(employees, $e, $e.age > 30 AND $e.salary > 100000).@count > 0",
        tree: cmp(
            .greaterThan,
            key(
                subq(
                    key("employees"), "e",
                    AND(
                        cmp(.greaterThan, key(variable("e"), "age"), int(30)),
                        cmp(.greaterThan, key(variable("e"), "salary"), int(100000)))), "@count"),
            int(0)),
        printed: "SUBQUERY(employees, $e, $e.age > 30 AND $e.salary > 100000).@count > 0"),
    .init(
        number: 53, format: "SUBQUERY(departments, $d, SUBQUERY($d.employees, $e, $e.age > 60).@count > 0).@count == 0",
        tree: cmp(
            .equalTo,
            key(
                subq(
                    key("departments"), "d",
                    cmp(
                        .greaterThan,
                        key(
                            subq(
                                key(variable("d"), "employees"), "e",
                                cmp(.greaterThan, key(variable("e"), "age"), int(60))), "@count"), int(0))),
                "@count"), int(0)),
        printed: "SUBQUERY(departments, $d, SUBQUERY($d.employees, $e, $e.age > 60).@count > 0).@count == 0"),
    .init(number: 54, format: "$minAge <= age", tree: cmp(.lessThanOrEqual, variable("minAge"), key("age")), printed: "$minAge <= age"),
    .init(number: 56, format: "#size == 3", tree: cmp(.equalTo, key("size"), int(3)), printed: "#size == 3"),
    .init(
        number: 57, format: "layer.bounds.#size.height > 10", tree: cmp(.greaterThan, key("layer.bounds.size.height"), int(10)),
        printed: "layer.bounds.#size.height > 10"),
    .init(number: 58, format: "#like like 'like'", tree: cmp(.like, key("like"), str("like")), printed: "#like LIKE \"like\""),
    .init(number: 59, format: "age + 1 == 35", tree: cmp(.equalTo, fn(.add, key("age"), int(1)), int(35)), printed: "age + 1 == 35"),
    .init(
        number: 60, format: "(self) ** 2 * 2 = 72", tree: cmp(.equalTo, fn(.multiply, fn(.raise, selfExpr, int(2)), int(2)), int(72)),
        printed: "SELF ** 2 * 2 == 72"),
    .init(
        number: 61, format: "(age + 5) * 2 > 80", tree: cmp(.greaterThan, fn(.multiply, fn(.add, key("age"), int(5)), int(2)), int(80)),
        printed: "(age + 5) * 2 > 80"),
    .init(number: 62, format: "age > -1", tree: cmp(.greaterThan, key("age"), int(-1)), printed: "age > -1"),
    .init(number: 63, format: "-age < 0", tree: cmp(.lessThan, fn(.negate, key("age")), int(0)), printed: "-age < 0"),
    .init(
        number: 64, format: "0x1F == 31 AND 0o17 == 15 AND 0b101 == 5",
        tree: AND(cmp(.equalTo, int(31), int(31)), cmp(.equalTo, int(15), int(15)), cmp(.equalTo, int(5), int(5))),
        printed: "31 == 31 AND 15 == 15 AND 5 == 5"),
    .init(number: 65, format: "ratio < 9.2e-5", tree: cmp(.lessThan, key("ratio"), dbl(0.000092)), printed: "ratio < 9.2e-05"),
    .init(number: 66, format: "1 << 3 == 8", tree: cmp(.equalTo, fn(.leftShift, int(1), int(3)), int(8)), printed: "1 << 3 == 8"),
    .init(
        number: 67, format: "tags[FIRST] == 'swift'", tree: cmp(.equalTo, idx(key("tags"), .first), str("swift")),
        printed: "tags[FIRST] == \"swift\""),
    .init(number: 68, format: "tags[SIZE] == 2", tree: cmp(.equalTo, idx(key("tags"), .size), int(2)), printed: "tags[SIZE] == 2"),
    .init(
        number: 69, format: "{1, 2, 3}[LAST] == 3", tree: cmp(.equalTo, idx(agg(int(1), int(2), int(3)), .last), int(3)),
        printed: "{1, 2, 3}[LAST] == 3"),
    .init(
        number: 70, format: "sum({1, 2, 3}) == 6", tree: cmp(.equalTo, fn(.sum, agg(int(1), int(2), int(3))), int(6)),
        printed: "sum:({1, 2, 3}) == 6"),
    .init(
        number: 71, format: "modulus:by:(age, 2) == 0", tree: cmp(.equalTo, fn(.modulus, key("age"), int(2)), int(0)),
        printed: "modulus:by:(age, 2) == 0"),
    .init(
        number: 72, format: "uppercase(name) == 'ALICE'", tree: cmp(.equalTo, fn(.uppercase, key("name")), str("ALICE")),
        printed: "uppercase:(name) == \"ALICE\""),
    .init(number: 73, format: "startDate < now()", tree: cmp(.lessThan, key("startDate"), fn(.now)), printed: "startDate < now()"),
    .init(
        number: 74, format: "FUNCTION(a, \"pow:\", 3) == 8",
        tree: cmp(.equalTo, ExpressionNode(kind: .methodCall(target: key("a"), selector: "pow:", arguments: [int(3)])), int(8)),
        printed: "FUNCTION(a, \"pow:\" , 3) == 8"),
    .init(
        number: 75, format: "startDate > CAST(600000000, 'NSDate')", tree: cmp(.greaterThan, key("startDate"), date(600000000)),
        printed: "startDate > CAST(600000000.000000, \"NSDate\")"),
    .init(
        number: 76, format: "startDate > %@", arguments: [.date(Date(timeIntervalSinceReferenceDate: 600739200))],
        tree: cmp(.greaterThan, key("startDate"), date(600739200)), printed: "startDate > CAST(600739200.000000, \"NSDate\")"),
    .init(
        number: 77, format: "CAST(age, 'NSString') == '34'",
        tree: cmp(.equalTo, ExpressionNode(kind: .cast(key("age"), type: "NSString")), str("34")),
        printed: "CAST(age, \"NSString\") == \"34\""),
    .init(
        number: 78, format: "TERNARY(age > 40, 'senior', 'junior') == 'junior'",
        tree: cmp(
            .equalTo, ExpressionNode(kind: .ternary(cmp(.greaterThan, key("age"), int(40)), str("senior"), str("junior"))),
            str("junior")),
        printed: "TERNARY(age > 40, \"senior\", \"junior\") == \"junior\""),
    .init(
        number: 79, format: "ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"public.image\"",
        tree: anyCmp(.utiConformsTo, key(variable("a"), "registeredTypeIdentifiers"), str("public.image")),
        printed: "ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"public.image\""),
]

@Suite("§6.2 format examples")
struct FormatExamplesTests {
    @Test(arguments: formatExamples)
    func parsesToTheListedTree(_ example: FormatExample) throws {
        let parsed = try PredicateNode(format: example.format, argumentArray: example.arguments.map(\.value))
        #expect(parsed == example.tree)
    }

    @Test(arguments: formatExamples)
    func printsTheListedForm(_ example: FormatExample) throws {
        let parsed = try PredicateNode(format: example.format, argumentArray: example.arguments.map(\.value))
        #expect(parsed.predicateFormat == example.printed)
    }

    @Test("#54 with {minAge: 21} prints 21 <= age")
    func substitutionOfMinAge() throws {
        let p = try PredicateNode(format: "$minAge <= age").substitutingVariables(["minAge": 21])
        #expect(p == cmp(.lessThanOrEqual, int(21), key("age")))
        #expect(p.predicateFormat == "21 <= age")
    }

    @Test("#55 $a == 1 substituted with {a: \"a\"}")
    func substitutionOfA() throws {
        let p = try PredicateNode(format: "$a == 1").substitutingVariables(["a": "a"])
        #expect(p == cmp(.equalTo, str("a"), int(1)))
        #expect(p.predicateFormat == "\"a\" == 1")
    }

    @Test(arguments: [
        "name == ?", "1", "TRUE", "0 || 1", "name NOT IN {'a'}", "a.0 == 1", "%k == 1", "name == 'abc",
        "FUNCTION('abc', func, 1)", "name LIKE[x] 'a'", "factorial(3)",
    ])
    func listedParseErrors(_ format: String) {
        #expect(throws: PredicateParseError.self) { try PredicateNode(format: format, 1) }
    }

    @Test("x BETWEEN {1} parses but fails at evaluation")
    func betweenOneElement() throws {
        let p = try PredicateNode(format: "x BETWEEN {1}")
        #expect(p == cmp(.between, key("x"), agg(int(1))))
        #expect(throws: PredicateEvaluationError.invalidBetweenBounds(expression: "{1}")) {
            try p.evaluate(with: ["x": 1] as [String: Any])
        }
    }
}
