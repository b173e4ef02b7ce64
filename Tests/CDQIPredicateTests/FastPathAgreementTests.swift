import CDQITestSupport
import Foundation
import Testing

@testable import CDQIPredicate

/// The evaluator's shortcuts for `key.path op constant` and `ANY|ALL to.many.key op constant` must
/// answer exactly as the general evaluation does: same truth value, same error.
@Suite("Evaluator fast path agrees with the general path")
struct FastPathAgreementTests {
    private static let keyPaths = [
        "name", "age", "salary", "nickname", "city", "tags", "startDate", "department", "department.name",
        "department.employees.name", "employees", "employees.name", "employees.age", "employees.nickname",
        "employees.department.name", "name.length", "missing", "department.missing", "employees.missing",
    ]
    private static let operators = [
        "==", "!=", "<", "<=", ">", ">=", "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES",
        "CONTAINS", "IN",
    ]
    private static let options = ["", "[c]", "[d]", "[cd]", "[n]"]
    private static let constants = [
        "nil", "34", "28.0", "120000", "150000.5", "'Alice'", "'alice'", "'ALI*'", "'Bob'", "'bob*'", "'Café'",
        "'cafe'", "'Zürich'", "'zurich'", "'Research'", "'res'", "'.*e.*'", "''", "TRUE", "{'Alice', 'Bob'}",
        "{34, 45}", "{'research', nil}", "{}",
    ]

    private func outcome(_ predicate: PredicateNode, _ object: any KeyValueAccessible, fast: Bool) -> String {
        var evaluator = Evaluator(root: .object(object), variables: [:])
        evaluator.usesFastPath = fast
        do {
            return String(try evaluator.evaluate(predicate))
        } catch {
            return "error: \(error)"
        }
    }

    @Test("8,000 generated comparisons on the §6.3 fixture and a dictionary")
    func agree() throws {
        var rng = SeededGenerator(seed: 2026)
        let fixture = Fixture()
        let objects: [any KeyValueAccessible] = [
            fixture.alice, fixture.bob, fixture.carol, fixture.research, fixture.empty,
            ["name": "Dora", "age": 34, "department": ["name": "Research"]] as [String: Any],
        ]
        var fastAnswered = 0
        for _ in 0..<8_000 {
            let modifier = ["", "ANY ", "ALL ", "NONE "].randomElement(using: &rng) ?? ""
            let keyPath = Self.keyPaths.randomElement(using: &rng) ?? "name"
            let op = Self.operators.randomElement(using: &rng) ?? "=="
            let option =
                ["==", "!=", "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES", "CONTAINS", "IN"].contains(op)
                ? (Self.options.randomElement(using: &rng) ?? "") : ""
            let constant = Self.constants.randomElement(using: &rng) ?? "nil"
            let format = "\(modifier)\(keyPath) \(op)\(option) \(constant)"
            guard let predicate = try? PredicateNode(format: format) else { continue }
            for object in objects {
                let general = outcome(predicate, object, fast: false)
                let fast = outcome(predicate, object, fast: true)
                #expect(fast == general, "\(format) on \(object)")
                let evaluator = Evaluator(root: .object(object), variables: [:])
                if case .comparison(let c) = predicate.kind, case .some(.some) = try? evaluator.fastEvaluate(c) {
                    fastAnswered += 1
                }
            }
        }
        // The shortcuts must actually be exercised, not skipped for every case.
        #expect(fastAnswered > 4_000)
    }
}
