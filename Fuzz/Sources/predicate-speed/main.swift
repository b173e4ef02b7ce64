import CDQIPredicate
import Foundation

// Measures, in release mode, the two speed goals of issue 3: parsing the three-clause predicate with
// its arguments, and evaluating it on one object.

let format = "(salary > %@) AND (department.name BEGINSWITH[cd] %@) AND ANY languages.name IN %@"
let languages = ["Swift", "Go", "Rust"]

/// An object shaped like a managed object: stored properties behind `predicateValue(forKey:)`.
final class Language: KeyValueAccessible {
    let name: String
    init(name: String) { self.name = name }
    func predicateValue(forKey key: String) throws(PredicateEvaluationError) -> PredicateValue {
        guard key == "name" else { throw .unknownKey(key: key, keyPath: key) }
        return .scalar(.string(name))
    }
}

final class Department: KeyValueAccessible {
    let name: String
    init(name: String) { self.name = name }
    func predicateValue(forKey key: String) throws(PredicateEvaluationError) -> PredicateValue {
        guard key == "name" else { throw .unknownKey(key: key, keyPath: key) }
        return .scalar(.string(name))
    }
}

final class Employee: KeyValueAccessible {
    let salary: Double
    let department: Department
    let languages: [Language]
    init(salary: Double, department: Department, languages: [Language]) {
        self.salary = salary
        self.department = department
        self.languages = languages
    }
    func predicateValue(forKey key: String) throws(PredicateEvaluationError) -> PredicateValue {
        switch key {
        case "salary": return .scalar(.double(salary))
        case "department": return .object(department)
        case "languages": return .toMany(languages)
        default: throw .unknownKey(key: key, keyPath: key)
        }
    }
}

/// `SPEED_DIVISOR=100` runs a hundredth of the iterations (for valgrind, which is ~50× slower).
let divisor = max(1, Int(ProcessInfo.processInfo.environment["SPEED_DIVISOR"] ?? "") ?? 1)

func measure(_ label: String, iterations: Int, _ body: () throws -> Bool) rethrows {
    let iterations = max(10, iterations / divisor)
    var sink = 0
    for _ in 0..<(iterations / 10) where try body() { sink &+= 1 }  // warm-up
    var best = Double.infinity
    // Thread CPU time, so that other processes on a busy machine do not inflate the figures.
    func cpuSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }
    for _ in 0..<5 {
        let start = cpuSeconds()
        for _ in 0..<iterations where try body() { sink &+= 1 }
        best = min(best, (cpuSeconds() - start) / Double(iterations))
    }
    print("\(label): \(String(format: "%.3f", best * 1e6)) µs CPU per operation (best of 5 × \(iterations); sink \(sink))")
}

do {
    let employee = Employee(
        salary: 120_000, department: Department(name: "Research"),
        languages: [Language(name: "C"), Language(name: "Rust")])
    let dictionary: [String: Any] = [
        "salary": 120_000.0, "department": ["name": "Research"],
        "languages": [["name": "C"], ["name": "Rust"]],
    ]
    let predicate = try PredicateNode(format: format, 100_000, "rés", languages)
    guard try predicate.evaluate(with: employee), try predicate.evaluate(with: dictionary) else {
        print("unexpected: the predicate is false for the sample objects")
        exit(1)
    }
    let only = CommandLine.arguments.dropFirst().first
    if only == nil || only == "parse" {
        try measure("parse with 3 arguments", iterations: 200_000) {
            if case .and = try PredicateNode(format: format, 100_000, "rés", languages).kind { return true }
            return false
        }
    }
    if only == nil || only == "evaluate" {
        try measure("evaluate on a KeyValueAccessible class", iterations: 500_000) {
            try predicate.evaluate(with: employee)
        }
    }
    if only == nil || only == "dictionary" {
        try measure("evaluate on a [String: Any] dictionary", iterations: 200_000) {
            try predicate.evaluate(with: dictionary)
        }
    }
    if let clause = only, clause.hasPrefix("clause:") {
        let p = try PredicateNode(format: String(clause.dropFirst(7)))
        try measure("evaluate \(clause.dropFirst(7))", iterations: 500_000) { try p.evaluate(with: employee) }
    }
    if only == "breakdown" {
        for clause in [
            "TRUEPREDICATE", "salary > 100000", "department.name BEGINSWITH[cd] 'rés'",
            "ANY languages.name IN {'Swift', 'Go', 'Rust'}",
        ] {
            let p = try PredicateNode(format: clause)
            try measure("evaluate \(clause)", iterations: 500_000) { try p.evaluate(with: employee) }
        }
    }
    if only == nil || only == "print" {
        measure("print (predicateFormat)", iterations: 200_000) {
            predicate.predicateFormat.utf8.count > 10
        }
    }
} catch {
    print("error: \(error)")
    exit(1)
}
