import CDQIPredicate
import Foundation
import Testing

@Suite("Round trip parse(print(p)) == p")
struct RoundTripTests {
    @Test("5,000 generated ASTs round-trip up to §5's normalisations")
    func generatedASTs() throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["CDQI_ROUNDTRIP_SEED"] ?? "") ?? 20261122
        var generator = RandomASTGenerator(seed: seed)
        var failures: [String] = []
        for _ in 0..<5000 {
            let p = generator.predicate(depth: 4)
            let printed = p.predicateFormat
            do {
                let reparsed = try PredicateNode(format: printed)
                if reparsed != RoundTripNormalization.normalize(p) {
                    failures.append("tree differs: \(printed)")
                } else if reparsed.predicateFormat != printed {
                    failures.append("print differs: \(printed) vs \(reparsed.predicateFormat)")
                }
            } catch {
                failures.append("\(error)")
            }
            if failures.count > 5 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test("special constants print in re-parseable forms")
    func specialConstants() throws {
        let cases: [(ExpressionNode, String)] = [
            (.constant(.integer(Int64.min)), "CAST(\"-9223372036854775808\", \"NSNumber\")"),
            (.constant(.double(.infinity)), "CAST(\"inf\", \"NSNumber\")"),
            (.constant(.double(-.infinity)), "CAST(\"-inf\", \"NSNumber\")"),
            (.constant(.double(.nan)), "nil"),
            (.constant(.date(secondsSinceReferenceDate: -978250148)), "CAST(-978250148.000000, \"NSDate\")"),
            (.constant(.date(secondsSinceReferenceDate: 600739200.1234567)), "CAST(600739200.1234567, \"NSDate\")"),
            (.constant(.uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)), "CAST(\"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\", \"NSUUID\")"),
            (.constant(.data(Data([1, 2, 3]))), "CAST(\"AQID\", \"NSData\")"),
            (.constant(.string("a\"b\\c\nd\u{1}")), "\"a\\\"b\\\\c\\nd\\u0001\""),
            (.index(key("a.d"), .at(int(0))), "(a.d)[0]"),
            (fn(.subtract, key("a"), fn(.subtract, key("b"), key("c"))), "a - (b - c)"),
            (fn(.divide, key("a"), fn(.multiply, key("b"), key("c"))), "a / (b * c)"),
        ]
        for (expression, printed) in cases {
            #expect(expression.expressionFormat == printed)
            let reparsed = try PredicateNode(format: "x == " + printed)
            #expect(reparsed == cmp(.equalTo, key("x"), expression))
        }
    }
}

@Suite("Generated ASTs never trap")
struct NoTrapTests {
    @Test("evaluating 3,000 generated predicates returns or throws, never traps")
    func evaluateGenerated() {
        var generator = RandomASTGenerator(seed: 7)
        let fixture = Fixture()
        let objects: [any KeyValueAccessible] = [
            fixture.alice, fixture.research, fixture.empty,
            ["name": "x", "age": 3, "tags": ["a"]] as [String: Any],
        ]
        var evaluated = 0
        var failed = 0
        for i in 0..<3000 {
            let p = generator.predicate(depth: 3)
            do {
                _ = try p.evaluate(
                    with: objects[i % objects.count],
                    variables: [
                        "e": .object(fixture.bob), "d": .scalar(.integer(2)),
                        "minAge": .scalar(.double(3.5)), "first": .array([]), "v_2": .null,
                    ])
                evaluated += 1
            } catch {
                failed += 1
            }
        }
        #expect(evaluated + failed == 3000)
        #expect(evaluated > 0)
    }
}
