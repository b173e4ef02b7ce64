// The README's queries, run on a store filled with the data set below.
//
// `bin/demo` generates the Company model's proxies (`EmployeeAttribute`, …), entity classes
// (`Employee`, `Department`) and embedded model (`CompanyModel`) into Generated/ first.

import CDQIStore
import CoreDataQueryInterface
import Foundation

/// Twelve employees in five departments (Legal has nobody; Liam has no department).
let people: [(first: String, last: String, nick: String?, salary: Int32, hired: String?, department: String?)] = [
    ("Ann", "Lee", "Annie", 120_000, "2015-03-01", "Engineering"),
    ("Bob", "Smith", nil, 95_000, "2018-06-15", "Engineering"),
    ("Chloé", "Martin", "Clo", 105_000, "2020-01-10", "Engineering"),
    ("Grace", "Hopper", "Amazing Grace", 150_000, "2010-01-04", "Engineering"),
    ("David", "Smith", "Dave", 70_000, "2012-09-01", "Sales"),
    ("Emma", "Jones", nil, 82_000, "2019-04-20", "Sales"),
    ("Frank", "Müller", "Frankie", 64_000, "2021-11-01", "Sales"),
    ("Hugo", "Renard", nil, 58_000, "2022-02-14", "Marketing"),
    ("Iris", "Smithson", "Irie", 61_000, "2016-07-01", "Marketing"),
    ("Jack", "O'Neil", nil, 45_000, nil, "Support"),
    ("Karen", "Lee", "Kay", 47_000, "2023-05-05", "Support"),
    ("Liam", "Noël", nil, 52_000, "2014-08-18", nil),
]

func date(_ text: String) -> Date? {
    ISO8601DateFormatter().date(from: text + "T00:00:00Z")
}

func names(_ employees: [Employee]) -> String {
    employees.map { "\($0.firstName) \($0.lastName)" }.joined(separator: ", ")
}

func run() throws {
    // A store file in a fresh folder, with the generated classes registered.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-example-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let container = try PersistentContainer(model: CompanyModel.self, url: folder.appendingPathComponent("Company.sqlite"))
    let context = container.viewContext

    var departments: [String: Department] = [:]
    for name in ["Engineering", "Sales", "Marketing", "Support", "Legal"] {
        let department = try context.insert(Department.self)
        department.name = name
        departments[name] = department
    }
    for person in people {
        let employee = try context.insert(Employee.self)
        employee.firstName = person.first
        employee.lastName = person.last
        employee.nickName = person.nick
        employee.salary = person.salary
        employee.hireDate = person.hired.flatMap(date)
        employee.department = person.department.flatMap { departments[$0] }
    }
    try context.save()
    print("saved \(try context.from(Department.self).count()) departments and \(try context.from(Employee.self).count()) employees")

    let engineers = try context.from(Employee.self)
        .filter { $0.department.name == "Engineering" }
        .order { $0.lastName }
        .all()
    print("engineers by last name: \(names(engineers))")

    let wellPaid = try context.from(Employee.self).filter { $0.salary >= 80_000 }.count()
    print("earning at least 80,000: \(wellPaid)")

    let smiths = try context.from(Employee.self)
        .filter("lastName BEGINSWITH[c] %@", "smi")
        .order("firstName")
        .all()
    print("last name begins with 'smi' (any case): \(names(smiths))")

    let noNickName = try context.from(Employee.self).filter { $0.nickName == nil }.order { $0.firstName }.all()
    print("no nickname: \(names(noNickName))")

    let leesAndSmiths = try context.from(Employee.self).filter { $0.lastName == ["Lee", "Smith"] }.count()
    print("named Lee or Smith: \(leesAndSmiths)")

    let cutoff = date("2015-01-01") ?? Date()
    let veterans = try context.from(Employee.self).filter { $0.hireDate < cutoff }.order { $0.hireDate }.all()
    print("hired before 2015: \(names(veterans))")

    let stars = try context.from(Department.self)
        .filter { any($0.employees.salary > 140_000) }
        .array { $0.name }
    print("departments with someone above 140,000: \(stars.compactMap { $0 }.joined(separator: ", "))")

    let modest = try context.from(Department.self)
        .filter { none($0.employees.salary >= 60_000) }
        .order { $0.name }
        .array { $0.name }
    print("departments where nobody earns 60,000 or more: \(modest.compactMap { $0 }.joined(separator: ", "))")

    let busy = try context.from(Department.self)
        .filter { subquery($0.employees) { $0.salary > 60_000 }.cdqiCount() > 2 }
        .order { $0.name }
        .array { $0.name }
    print("departments with more than two people above 60,000: \(busy.compactMap { $0 }.joined(separator: ", "))")

    let page = try context.from(Employee.self)
        .order(ascending: false) { $0.salary }
        .offset(2)
        .limit(3)
        .all()
    print("third to fifth best paid: \(names(page))")

    let lastNames = try context.from(Employee.self).select("lastName").distinct().count()
    print("distinct last names: \(lastNames)")

    print("salaries by department (max, average):")
    let rows = try context.from(Employee.self)
        .select { ($0.department.name, $0.salary.cdqiMax(), $0.salary.cdqiAverage()) }
        .groupBy { $0.department.name }
        .order("department.name")
        .all()
    for (department, highest, average) in rows {
        let label = department ?? "(no department)"
        print("  \(label): \(highest.map(String.init) ?? "-"), \(average.map { String(format: "%.1f", $0) } ?? "-")")
    }

    print(try readmeSnippet(storeURL: folder.appendingPathComponent("Snippet.sqlite")))
}

/// The README's snippet for generated classes, as written there (between the two marker comments; a
/// test checks that both say the same), on a store of its own.
func readmeSnippet(storeURL: URL) throws -> String {
    // README snippet: generated classes
    let container = try PersistentContainer(model: CompanyModel.self, url: storeURL)  // url: nil for in memory
    let context = container.viewContext
    let engineering = try context.insert(Department.self)
    engineering.name = "Engineering"
    let ann = try context.insert(Employee.self)
    ann.firstName = "Ann"
    ann.lastName = "Lee"
    ann.department = engineering  // also adds ann to engineering.employees
    try context.save()
    let staff = try context.fetch(FetchRequest(entityName: "Employee"))  // Employee instances
    // README snippet end
    let fetched = staff.compactMap { $0 as? Employee }.map(\.lastName)
    let members = engineering.employees.map(\.lastName)
    return "README snippet: fetched \(staff.count) Employee (\(fetched.joined())); \(engineering.name) lists \(members.joined())"
}

do {
    try run()
} catch {
    print("error: \(error)")
    exit(1)
}
