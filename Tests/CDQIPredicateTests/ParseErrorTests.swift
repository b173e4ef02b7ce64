import CDQIPredicate
import CDQITestSupport
import Foundation
import Testing

@Suite("Parse errors and hostile input")
struct ParseErrorTests {
    func error(_ format: String, _ arguments: Any?...) -> PredicateParseError? {
        do {
            _ = try PredicateNode(format: format, argumentArray: arguments)
            return nil
        } catch {
            return error
        }
    }

    @Test("the issue's example renders like a compiler diagnostic")
    func rendering() throws {
        let e = try #require(error("salary > 5 AND name BEGINSWITH"))
        #expect(e.message == "expected an expression after 'BEGINSWITH'")
        #expect(e.utf8Offset == 30)
        #expect(
            e.description == """
                error: expected an expression after 'BEGINSWITH'
                 --> salary > 5 AND name BEGINSWITH
                                                   ^
                """)
    }

    @Test(
        "offsets point at the offending token",
        arguments: [
            ("name == ?", 8), ("name NOT IN {'a'}", 5), ("%k == 1", 0), ("name == 'abc", 8), ("name LIKE[x] 'a'", 10),
            ("factorial(3)", 0), ("a.0 == 1", 1), ("(a == 1", 7), ("a == 1)", 6), ("a == 1 AND", 10),
            ("FUNCTION('abc', func, 1)", 16),
        ])
    func offsets(_ format: String, _ offset: Int) throws {
        let e = try #require(error(format))
        #expect(e.utf8Offset == offset)
    }

    @Test("character offsets count characters, not bytes")
    func characterOffset() throws {
        let e = try #require(error("name == 'Zürich' ?"))
        #expect(e.utf8Offset == 18)
        #expect(e.characterOffset == 17)
        #expect(e.description.hasSuffix("\n" + String(repeating: " ", count: 5 + 17) + "^"))
    }

    @Test("bare expressions are not predicates", arguments: ["1", "TRUE", "0 || 1", "name", "(a + 1)", "SELF"])
    func bareExpressions(_ format: String) {
        #expect(error(format) != nil)
    }

    @Test("argument count and types are checked")
    func arguments() throws {
        #expect(
            try #require(error("a == %@ AND b == %@", 1)).message
                == "not enough arguments: '%@' needs argument 2, but 1 were given")
        #expect(try #require(error("%K == 1", 5)).message == "argument 1 for '%K' must be a key path string, not Int")
        #expect(try #require(error("a == %d", "x")).message == "argument 1 for '%d' must be an integer that fits in 64 bits, not String")
        #expect(try #require(error("a == %lld", UInt64.max)).utf8Offset == 5)
        #expect(error("a == %1$@", 1) != nil)
        #expect(error("a == %%", 1) != nil)
    }

    @Test(
        "integer literals that do not fit in Int64 are errors",
        arguments: ["a == 99999999999999999999", "a == 0xFFFFFFFFFFFFFFFF", "a == 0b" + String(repeating: "1", count: 64)])
    func hugeIntegers(_ format: String) {
        #expect(error(format) != nil)
    }

    @Test("huge literals parse without trouble")
    func hugeLiterals() throws {
        let long = String(repeating: "x", count: 200_000)
        let p = try PredicateNode(format: "name == '\(long)'")
        #expect(p == cmp(.equalTo, key("name"), str(long)))
        let digits = String(repeating: "9", count: 5000)
        let q = try PredicateNode(format: "a < \(digits).5")
        #expect(q == cmp(.lessThan, key("a"), dbl(.infinity)))
        let big = try PredicateNode(format: "a == 9223372036854775807")
        #expect(big == cmp(.equalTo, key("a"), int(Int64.max)))
    }

    @Test("10,000 nested parentheses give an error, not a stack overflow")
    func deepParentheses() throws {
        let deep = String(repeating: "(", count: 10_000) + "a == 1" + String(repeating: ")", count: 10_000)
        let e = try #require(error(deep))
        #expect(e.message.contains("nested too deeply"))
        let deepExpression = "a == " + String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000)
        #expect(try #require(error(deepExpression)).message.contains("nested too deeply"))
        let deepNot = String(repeating: "NOT ", count: 10_000) + "a == 1"
        #expect(try #require(error(deepNot)).message.contains("nested too deeply"))
        let deepMinus = "a == " + String(repeating: "-", count: 10_000) + "1"
        #expect(try #require(error(deepMinus)).message.contains("nested too deeply"))
        let deepBraces = "a IN " + String(repeating: "{", count: 10_000)
        #expect(try #require(error(deepBraces)).message.contains("nested too deeply"))
        let deepSubquery = String(repeating: "SUBQUERY(x, $v, ", count: 5_000)
        #expect(error("a == " + deepSubquery) != nil)
    }

    @Test("moderate nesting within the limit parses")
    func moderateNesting() throws {
        let p = try PredicateNode(format: String(repeating: "(", count: 50) + "a == 1" + String(repeating: ")", count: 50))
        #expect(p == cmp(.equalTo, key("a"), int(1)))
        let q = try PredicateNode(format: "a == " + String(repeating: "(", count: 50) + "1" + String(repeating: ")", count: 50))
        #expect(q == cmp(.equalTo, key("a"), int(1)))
    }

    @Test("random byte strings never crash the parser")
    func randomBytes() {
        var generator = SeededGenerator(seed: 0xC0FFEE)
        let alphabet = Array("()[]{},.=!<>&|*+-/^~:$@#%'\"\\ aZ09_xANDORNOTINSELF@count%@%K%d".utf8)
        var parsed = 0
        for round in 0..<3000 {
            let count = Int.random(in: 0..<40, using: &generator)
            let bytes: [UInt8] = (0..<count).map { _ in
                round % 2 == 0 ? UInt8.random(in: 0...255, using: &generator) : alphabet.randomElement(using: &generator) ?? 0
            }
            if PredicateFuzzing.parse(bytes: bytes) { parsed += 1 }
        }
        // Mostly garbage: far fewer than all parse, but the loop completed without a trap.
        #expect(parsed < 3000)
    }

    @Test("an invalid constant MATCHES pattern is a parse error at the pattern")
    func invalidRegex() throws {
        let e = try #require(error("name MATCHES '(unclosed'"))
        #expect(e.utf8Offset == 13)
        #expect(e.message.hasPrefix("invalid regular expression"))
    }

    @Test("expression parsing rejects predicates")
    func expressionFormat() throws {
        #expect(try ExpressionNode(format: "salary * 2") == fn(.multiply, key("salary"), int(2)))
        #expect(throws: PredicateParseError.self) { try ExpressionNode(format: "1 == 1") }
        #expect(throws: PredicateParseError.self) { try ExpressionNode(format: "TRUEPREDICATE") }
    }
}

@Suite("Parse error rendering")
struct ParseErrorRenderingTests {
    @Test("multi-line input shows the line holding the error")
    func multiLine() throws {
        do {
            _ = try PredicateNode(format: "a == 1 AND\n  b ==")
            Issue.record("expected an error")
        } catch {
            #expect(error.utf8Offset == 17)
            #expect(error.description == "error: expected an expression after '=='\n -->   b ==\n" + String(repeating: " ", count: 5 + 6) + "^")
        }
    }

    @Test("nesting just under the limit parses, just over fails")
    func limit() throws {
        let ok = String(repeating: "(", count: 150) + "a == 1" + String(repeating: ")", count: 150)
        #expect(try PredicateNode(format: ok) == cmp(.equalTo, key("a"), int(1)))
        let tooDeep = String(repeating: "(", count: 300) + "a == 1" + String(repeating: ")", count: 300)
        #expect(throws: PredicateParseError.self) { try PredicateNode(format: tooDeep) }
    }
}
