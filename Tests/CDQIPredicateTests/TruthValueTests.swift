import CDQIPredicate
import Foundation
import Testing

/// predicate-language.md §6.3: truth values on the fixture, transcribed from the reference table.
struct TruthCase: Sendable, CustomTestStringConvertible {
    var format: String
    var object: String
    var expected: Bool
    var testDescription: String { "\(format) on \(object) is \(expected)" }
}

let truthCases: [TruthCase] = [
    .init(format: "age > 30 AND salary < 130000", object: "alice", expected: true),
    .init(format: "age > 30 AND salary < 130000", object: "carol", expected: false),
    .init(format: "NOT age > 30 OR name == 'Bob'", object: "alice", expected: false),
    .init(format: "NOT age > 30 OR name == 'Bob'", object: "bob", expected: true),
    .init(format: "nickname == nil", object: "alice", expected: true),
    .init(format: "nickname != 'bobby'", object: "alice", expected: true),
    .init(format: "nickname BEGINSWITH 'b'", object: "alice", expected: false),
    .init(format: "nickname ==[cd] 'CAFE'", object: "carol", expected: true),
    .init(format: "nickname ==[c] 'CAFE'", object: "carol", expected: false),
    .init(format: "nickname == 'Cafe'", object: "carol", expected: false),
    .init(format: "city CONTAINS[d] 'Zur'", object: "alice", expected: true),
    .init(format: "city CONTAINS 'Zur'", object: "alice", expected: false),
    .init(format: "city CONTAINS[cd] 'zur'", object: "alice", expected: true),
    .init(format: "name LIKE 'A*e'", object: "alice", expected: true),
    .init(format: "name LIKE 'a*'", object: "alice", expected: false),
    .init(format: "name LIKE[c] 'a*'", object: "alice", expected: true),
    .init(format: "name LIKE 'A?ice'", object: "alice", expected: true),
    .init(format: "name MATCHES 'A.*'", object: "alice", expected: true),
    .init(format: "name MATCHES 'lic'", object: "alice", expected: false),
    .init(format: "name BEGINSWITH ''", object: "alice", expected: false),
    .init(format: "name IN {'Alice', 'Bob'}", object: "alice", expected: true),
    .init(format: "name IN[c] {'alice'}", object: "alice", expected: true),
    .init(format: "'swift' IN tags", object: "alice", expected: true),
    .init(format: "tags CONTAINS 'sql'", object: "alice", expected: true),
    .init(format: "tags CONTAINS 'sq'", object: "alice", expected: false),
    .init(format: "age BETWEEN {28, 34}", object: "alice", expected: true),
    .init(format: "age BETWEEN {28, 34}", object: "bob", expected: true),
    .init(format: "age BETWEEN {28, 34}", object: "carol", expected: false),
    .init(format: "department.name == 'Research'", object: "alice", expected: true),
    .init(format: "age + 1 == 35", object: "alice", expected: true),
    .init(format: "salary / 1000 > 119", object: "alice", expected: true),
    .init(format: "startDate > CAST(600000000, 'NSDate')", object: "alice", expected: true),
    .init(format: "ANY employees.age > 40", object: "research", expected: true),
    .init(format: "ANY employees.age > 40", object: "empty", expected: false),
    .init(format: "ALL employees.age > 40", object: "research", expected: false),
    .init(format: "ALL employees.age > 40", object: "empty", expected: true),
    .init(format: "NONE employees.age > 50", object: "research", expected: true),
    .init(format: "NONE employees.age > 50", object: "empty", expected: true),
    .init(format: "ANY employees.nickname == nil", object: "research", expected: true),
    .init(format: "ALL employees.nickname != nil", object: "research", expected: false),
    .init(format: "employees.@count == 3", object: "research", expected: true),
    .init(format: "employees.@avg.salary > 120000", object: "research", expected: true),
    .init(format: "employees.@max.age == 45", object: "research", expected: true),
    .init(format: "employees.@min.age == 0", object: "empty", expected: false),
    .init(format: "SUBQUERY(employees, $e, $e.age > 30 AND $e.salary > 100000).@count == 2", object: "research", expected: true),
    .init(format: "SUBQUERY(employees, $e, $e.nickname ==[cd] 'cafe').@count > 0", object: "research", expected: true),
    .init(format: "nickname IN {nil, 'bobby'}", object: "alice", expected: false),
    .init(format: "nickname IN {nil, 'bobby'}", object: "bob", expected: true),
    .init(format: "employees.nickname.@count == 2", object: "research", expected: true),
    .init(format: "age / 0 == nil", object: "alice", expected: true),
    .init(format: "name == 34", object: "alice", expected: false),
    .init(format: "name != 34", object: "alice", expected: true),
    .init(format: "name > 5", object: "alice", expected: false),
    .init(format: "SUBQUERY(employees, $e, $e.department == SELF).@count == 3", object: "research", expected: true),
]

@Suite("§6.3 truth values")
struct TruthValueTests {
    @Test(arguments: truthCases)
    func truthValue(_ truth: TruthCase) throws {
        let fixture = Fixture()
        let predicate = try PredicateNode(format: truth.format)
        #expect(try predicate.evaluate(with: fixture.object(truth.object)) == truth.expected)
    }

    @Test("employees.age > 30 on research: to-many key not allowed")
    func toManyComparison() throws {
        let fixture = Fixture()
        let p = try PredicateNode(format: "employees.age > 30")
        #expect(throws: PredicateEvaluationError.toManyKeyNotAllowed(keyPath: "employees.age")) {
            try p.evaluate(with: fixture.research)
        }
    }

    @Test("employees.name IN {'Bob'} on research: to-many key not allowed")
    func toManyIn() throws {
        let fixture = Fixture()
        let p = try PredicateNode(format: "employees.name IN {'Bob'}")
        #expect(throws: PredicateEvaluationError.toManyKeyNotAllowed(keyPath: "employees.name")) {
            try p.evaluate(with: fixture.research)
        }
    }
}
