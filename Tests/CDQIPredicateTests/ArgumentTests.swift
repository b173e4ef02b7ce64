import CDQIPredicate
import Foundation
import Testing

@Suite("Argument substitution (§1.7)")
struct ArgumentTests {
    func rhs(_ format: String, _ arguments: Any?...) throws -> ExpressionNode {
        let p = try PredicateNode(format: format, argumentArray: arguments)
        guard case .comparison(let c) = p.kind else { throw PredicateEvaluationError.unsupported("not a comparison") }
        return c.rhs
    }

    @Test func scalarSpecifiers() throws {
        #expect(try rhs("a == %d", Int8(-5)) == int(-5))
        #expect(try rhs("a == %lld", Int64.max) == int(Int64.max))
        #expect(try rhs("a == %u", UInt32(7)) == int(7))
        #expect(try rhs("a == %hi", Int16(3)) == int(3))
        #expect(try rhs("a == %f", 2.5) == dbl(2.5))
        #expect(try rhs("a == %lf", Float(0.5)) == dbl(0.5))
        #expect(try rhs("a == %s", "hi") == str("hi"))
        #expect(try rhs("a == %c", Character("A")) == int(65))
        #expect(throws: PredicateParseError.self) { try rhs("a == %lld", UInt64.max) }
    }

    @Test func objectArguments() throws {
        #expect(try rhs("a == %@", UInt16(9)) == int(9))
        #expect(try rhs("a == %@", Float(1.5)) == dbl(1.5))
        #expect(try rhs("a == %@", true) == bool(true))
        #expect(try rhs("a == %@", Decimal(string: "1.25")!) == .constant(.decimal(Decimal(string: "1.25")!)))
        let uuid = UUID()
        #expect(try rhs("a == %@", uuid) == .constant(.uuid(uuid)))
        #expect(try rhs("a == %@", Data([1])) == .constant(.data(Data([1]))))
        let url = URL(string: "https://example.com")!
        #expect(try rhs("a == %@", url) == .constant(.uri(url)))
        let nothing: String? = nil
        #expect(try rhs("a == %@", nothing) == nilConstant)
        #expect(try rhs("a IN %@", Set([3])) == ExpressionNode(kind: .constantCollection([int(3)], ordered: false)))
        #expect(try rhs("a BETWEEN %@", agg(int(1), key("b"))) == agg(int(1), key("b")))
        #expect(throws: PredicateParseError.self) { try rhs("a == %@", NSObject()) }
    }

    @Test func keyPathsAndOrder() throws {
        let p = try PredicateNode(format: "%K == %@ AND %K.@count > %d", "employees.name", "Bob", "tags", 2)
        #expect(p == AND(cmp(.equalTo, key("employees.name"), str("Bob")), cmp(.greaterThan, key("tags.@count"), int(2))))
        #expect(try PredicateNode(format: "'%@' == %@", "x") == cmp(.equalTo, str("%@"), str("x")))
        #expect(try PredicateNode(format: "a == %@", 1, 2, 3) == cmp(.equalTo, key("a"), int(1)))
        #expect(
            try PredicateNode(format: "SELF LIKE %@*%@", "a", "b")
                == cmp(.like, selfExpr, fn(.multiply, str("a"), str("b"))))
    }

    @Test func keywordsAreCaseInsensitive() throws {
        #expect(try PredicateNode(format: "a == 1 and b == 2") == PredicateNode(format: "a == 1 AND b == 2"))
        #expect(try PredicateNode(format: "truepredicate") == .truePredicate)
        #expect(try PredicateNode(format: "flag == yes") == cmp(.equalTo, key("flag"), bool(true)))
        #expect(try PredicateNode(format: "a == \"\\x41\\u00e9\\101\\n\"") == cmp(.equalTo, key("a"), str("Aé\u{41}\n")))
        #expect(try PredicateNode(format: "a.b[0] == 1") == PredicateNode(format: "(a.b)[0] == 1"))
        #expect(try PredicateNode(format: "a == 1.") == cmp(.equalTo, key("a"), dbl(1)))
        #expect(throws: PredicateParseError.self) { try PredicateNode(format: "a == .5") }
        #expect(throws: PredicateParseError.self) { try PredicateNode(format: "a CI 'x'") }
        #expect(try PredicateNode(format: "SELF isKindOfClass: %@", "X") == cmp(.customSelector("isKindOfClass:"), selfExpr, str("X")))
    }
}
