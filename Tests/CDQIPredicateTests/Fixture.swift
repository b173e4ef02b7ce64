import CDQIPredicate
import Foundation

/// The fixture of predicate-language.md §6.3, as plain classes conforming to `KeyValueAccessible`.
final class Department: KeyValueAccessible {
    let name: String
    var employees: [Employee] = []
    init(name: String) { self.name = name }

    func predicateValue(forKey key: String) throws(PredicateEvaluationError) -> PredicateValue {
        switch key {
        case "name": return .scalar(.string(name))
        case "employees": return .toMany(employees)
        default: throw .unknownKey(key: key, keyPath: key)
        }
    }
}

final class Employee: KeyValueAccessible {
    let name: String, age: Int64, salary: Double, nickname: String?, city: String
    var tags: [String]?
    var startDate: Double?
    weak var department: Department?

    init(name: String, age: Int64, salary: Double, nickname: String?, city: String) {
        self.name = name
        self.age = age
        self.salary = salary
        self.nickname = nickname
        self.city = city
    }

    func predicateValue(forKey key: String) throws(PredicateEvaluationError) -> PredicateValue {
        switch key {
        case "name": return .scalar(.string(name))
        case "age": return .scalar(.integer(age))
        case "salary": return .scalar(.double(salary))
        case "nickname": return nickname.map { .scalar(.string($0)) } ?? .null
        case "city": return .scalar(.string(city))
        case "tags": return tags.map { .array($0.map { .scalar(.string($0)) }) } ?? .null
        case "startDate": return startDate.map { .scalar(.date(secondsSinceReferenceDate: $0)) } ?? .null
        case "department": return department.map { .object($0) } ?? .null
        default: throw .unknownKey(key: key, keyPath: key)
        }
    }
}

/// Builds the fixture; the caller keeps the departments alive (employees refer to them weakly).
struct Fixture {
    let research = Department(name: "Research")
    let empty = Department(name: "Empty")
    let alice = Employee(name: "Alice", age: 34, salary: 120000.0, nickname: nil, city: "Zürich")
    let bob = Employee(name: "Bob", age: 28, salary: 95000.0, nickname: "bobby", city: "Bern")
    let carol = Employee(name: "Carol", age: 45, salary: 150000.0, nickname: "Café", city: "Geneva")

    init() {
        alice.tags = ["swift", "sql"]
        alice.startDate = 600739200
        for e in [alice, bob, carol] { e.department = research }
        research.employees = [alice, bob, carol]
    }

    func object(_ name: String) -> any KeyValueAccessible {
        switch name {
        case "alice": return alice
        case "bob": return bob
        case "carol": return carol
        case "research": return research
        default: return empty
        }
    }
}
