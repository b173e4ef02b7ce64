import CompanyAPI
import Foundation

/// One request of a load-test client. Employees the client created are named by their *slot* (the
/// how-manieth create of this client it was), because their primary keys are only known once the
/// server answers, and differ between runs.
enum Step: Sendable {
    case createDepartment(String)
    case create(NewEmployee)
    case update(slot: Int, EmployeeChanges)
    case delete(slot: Int)
    case get(slot: Int)
    case list([(String, String)])
    case stats(department: String)
}

/// An employee the test expects the server to hold, with the label that names it in outcomes.
struct ExpectedEmployee: Equatable, Sendable {
    var label: String
    var firstName: String
    var lastName: String
    var nickName: String?
    var salary: Int32
    var department: String?
}

/// What the server must answer to a step, worked out by the script's own model of the store.
enum Expected: Equatable, Sendable {
    case department(String)
    /// Status 201 (a create) or 200, with this employee.
    case employee(status: Int, ExpectedEmployee)
    case employees([ExpectedEmployee])
    case stats([SalaryStats])
    case noContent
    case notFound
}

/// A client's requests with the answer each must get, made from a seed by a generator that keeps a
/// model of the client's own employees (a plain array, no store). Each client works in two departments
/// of its own, so the answers do not depend on how the clients' requests interleave; its reads of the
/// sample data (departments no client writes) are checked against the values written out by hand in
/// ``SampleExpectations``.
struct ClientScript: Sendable {
    let client: Int
    private(set) var steps: [(Step, Expected)] = []
    /// The model: each slot's employee, `nil` once deleted.
    private(set) var slots: [ExpectedEmployee?] = []

    var departments: [String] { ["Team \(client)", "Team \(client) Lab"] }

    init(client: Int, requests: Int, seed: UInt64) {
        self.client = client
        var random = SplitMix64(seed: seed &+ UInt64(client))
        for name in departments { steps.append((.createDepartment(name), .department(name))) }
        while steps.count < requests {
            let roll = random.next(below: 100)
            switch roll {
            case 0..<24: create(&random)
            case 24..<38: update(&random)
            case 38..<44: delete(&random)
            case 44..<58: get(&random)
            case 58..<61: touchDeleted(&random)
            case 61..<78: list(&random)
            case 78..<90: stats(&random)
            default: readSampleData(&random)
            }
        }
    }

    static let lastNames = ["Adams", "Adamson", "Baker", "Clark", "Davis", "Evans"]
    static let nickNames = ["Ace", "Bee", "Cat", "Dot"]

    private func label(_ slot: Int) -> String { "c\(client)#\(slot)" }

    private var liveSlots: [Int] { slots.indices.filter { slots[$0] != nil } }
    private var deletedSlots: [Int] { slots.indices.filter { slots[$0] == nil } }

    private mutating func create(_ random: inout SplitMix64) {
        let slot = slots.count
        let new = NewEmployee(
            firstName: "C\(client)E\(slot)",
            lastName: Self.lastNames[random.next(below: Self.lastNames.count)],
            nickName: random.next(below: 3) == 0 ? Self.nickNames[random.next(below: Self.nickNames.count)] : nil,
            salary: Int32(30_000 + 100 * random.next(below: 1_200)),
            department: departments[random.next(below: 2)]
        )
        let expected = ExpectedEmployee(
            label: label(slot), firstName: new.firstName, lastName: new.lastName, nickName: new.nickName,
            salary: new.salary, department: new.department)
        slots.append(expected)
        steps.append((.create(new), .employee(status: 201, expected)))
    }

    private mutating func update(_ random: inout SplitMix64) {
        guard let slot = random.pick(liveSlots), var employee = slots[slot] else { return create(&random) }
        var changes = EmployeeChanges()
        if random.next(below: 2) == 0 {
            changes.salary = Int32(30_000 + 100 * random.next(below: 1_200))
            employee.salary = changes.salary ?? employee.salary
        }
        switch random.next(below: 3) {
        case 0:
            changes.nickName = Self.nickNames[random.next(below: Self.nickNames.count)]
            employee.nickName = changes.nickName
        case 1:
            changes.clearNickName = true
            employee.nickName = nil
        default: break
        }
        if random.next(below: 3) == 0 {
            changes.department = departments[random.next(below: 2)]
            employee.department = changes.department
        }
        if random.next(below: 4) == 0 {
            changes.lastName = Self.lastNames[random.next(below: Self.lastNames.count)]
            employee.lastName = changes.lastName ?? employee.lastName
        }
        slots[slot] = employee
        steps.append((.update(slot: slot, changes), .employee(status: 200, employee)))
    }

    private mutating func delete(_ random: inout SplitMix64) {
        guard let slot = random.pick(liveSlots) else { return create(&random) }
        slots[slot] = nil
        steps.append((.delete(slot: slot), .noContent))
    }

    private mutating func get(_ random: inout SplitMix64) {
        guard let slot = random.pick(liveSlots), let employee = slots[slot] else { return create(&random) }
        steps.append((.get(slot: slot), .employee(status: 200, employee)))
    }

    /// A read, change or delete of a deleted employee: 404, and the change is not applied.
    private mutating func touchDeleted(_ random: inout SplitMix64) {
        guard let slot = random.pick(deletedSlots) else { return get(&random) }
        switch random.next(below: 3) {
        case 0: steps.append((.get(slot: slot), .notFound))
        case 1: steps.append((.update(slot: slot, EmployeeChanges(salary: 1)), .notFound))
        default: steps.append((.delete(slot: slot), .notFound))
        }
    }

    private mutating func list(_ random: inout SplitMix64) {
        let department = departments[random.next(below: 2)]
        var parameters = [("department", department)]
        var matches = slots.compactMap { $0 }.filter { $0.department == department }
        if random.next(below: 2) == 0 {
            let minimum = Int32(30_000 + 100 * random.next(below: 1_200))
            parameters.append(("minSalary", "\(minimum)"))
            matches = matches.filter { $0.salary >= minimum }
        }
        if random.next(below: 3) == 0 {
            let maximum = Int32(60_000 + 100 * random.next(below: 900))
            parameters.append(("maxSalary", "\(maximum)"))
            matches = matches.filter { $0.salary <= maximum }
        }
        if random.next(below: 3) == 0 {
            let prefix = ["Ad", "Adams", "Ba", "C", "Evans"][random.next(below: 5)]
            parameters.append(("lastNamePrefix", prefix))
            matches = matches.filter { $0.lastName.hasPrefix(prefix) }
        }
        // Names are ASCII: Swift's String order is SQLite's byte order here.
        matches.sort { ($0.lastName, $0.firstName) < ($1.lastName, $1.firstName) }
        if random.next(below: 4) == 0 {
            let offset = random.next(below: 5)
            let limit = 1 + random.next(below: 10)
            parameters += [("offset", "\(offset)"), ("limit", "\(limit)")]
            matches = Array(matches.dropFirst(offset).prefix(limit))
        }
        steps.append((.list(parameters), .employees(matches)))
    }

    private mutating func stats(_ random: inout SplitMix64) {
        let department = departments[random.next(below: 2)]
        steps.append((.stats(department: department), .stats(Self.stats(of: slots.compactMap { $0 }, in: department))))
    }

    /// The salary figures of one department's employees among `employees` (none when it has none).
    static func stats(of employees: [ExpectedEmployee], in department: String?) -> [SalaryStats] {
        let salaries = employees.filter { $0.department == department }.map(\.salary)
        guard let minimum = salaries.min(), let maximum = salaries.max() else { return [] }
        return [
            SalaryStats(
                department: department, employees: Int64(salaries.count),
                totalSalary: salaries.reduce(0) { $0 + Int64($1) }, minSalary: minimum, maxSalary: maximum)
        ]
    }

    private mutating func readSampleData(_ random: inout SplitMix64) {
        let department = SampleExpectations.employees.keys.sorted()[random.next(below: SampleExpectations.employees.count)]
        if random.next(below: 2) == 0 {
            steps.append((.list([("department", department)]), .employees(SampleExpectations.employees[department] ?? [])))
        } else {
            steps.append((.stats(department: department), .stats(SampleExpectations.stats.filter { $0.department == department })))
        }
    }

    /// The client's employees still present at the end, with their last values.
    var finalEmployees: [ExpectedEmployee] { slots.compactMap { $0 } }

    /// The salary figures of the client's departments at the end.
    var finalStats: [SalaryStats] { departments.flatMap { Self.stats(of: finalEmployees, in: $0) } }
}

/// A small, fast, seedable generator (Steele, Lea and Flood's SplitMix64), so that every run of the
/// test sends the same requests.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0).
    mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func pick(_ values: [Int]) -> Int? {
        values.isEmpty ? nil : values[next(below: values.count)]
    }
}
