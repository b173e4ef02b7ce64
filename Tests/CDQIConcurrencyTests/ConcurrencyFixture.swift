import CDQIModel
import CDQIStore
import CoreDataQueryInterface
import Foundation

// The Company model's departments and employees, as classes with proxies in the shape `cdqi`
// generates, and a small data set worked out by hand:
//
// | firstName | lastName | salary | department  |
// | --------- | -------- | ------ | ----------- |
// | Ann       | Lee      | 120000 | Engineering |
// | Bob       | Smith    |  95000 | Engineering |
// | Cleo      | Ray      |  70000 | Sales       |
// | Dan       | Wu       |  64000 | Sales       |
// | Eve       | Kim      |  52000 | nil         |
//
// Departments: Engineering (budget 500000), Sales (200000), Legal (nil budget, no employees).
// Worked out: 5 employees; salary > 90000: Ann, Bob (2); max salary 120000; by department name
// (NULL first): nil 52000 max / 1 employee, Engineering 120000 / 2, Sales 70000 / 2.

final class DepartmentAttribute: EntityAttribute {
    private(set) lazy var name = StringAttribute(key: "name", parent: self)
    private(set) lazy var budget = DecimalAttribute(key: "budget", parent: self)
}

final class EmployeeAttribute: EntityAttribute {
    private(set) lazy var firstName = StringAttribute(key: "firstName", parent: self)
    private(set) lazy var lastName = StringAttribute(key: "lastName", parent: self)
    private(set) lazy var salary = Integer32Attribute(key: "salary", parent: self)
    private(set) lazy var department = DepartmentAttribute(key: "department", parent: self)
}

final class Department: ManagedObject, Entity {
    typealias CDQIAttribute = DepartmentAttribute
    static let cdqiEntityName = "Department"
}

final class Employee: ManagedObject, Entity {
    typealias CDQIAttribute = EmployeeAttribute
    static let cdqiEntityName = "Employee"

    var firstName: String? { (try? value(forKey: "firstName")) as? String }
}

enum ConcurrencyFixture {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The Company fixture model.
    static func model() throws -> ManagedObjectModel {
        try ModelLoader().load(url: packageRoot.appendingPathComponent("Fixtures/Company.xcdatamodeld")).model
    }

    /// A container with the data set above saved, in memory (`url` nil) or in a file, with the classes
    /// registered.
    static func container(url: URL? = nil) throws -> PersistentContainer {
        let container = try PersistentContainer(model: try model(), url: url)
        container.coordinator.register(Employee.self, forEntityName: "Employee")
        container.coordinator.register(Department.self, forEntityName: "Department")
        let context = container.newContext()
        var departments: [String: ManagedObject] = [:]
        for (name, budget) in [("Engineering", Decimal(500_000)), ("Sales", Decimal(200_000))] as [(String, Decimal?)] + [("Legal", nil)] {
            let department = try context.insertNewObject(forEntityName: "Department")
            try department.setValue(name, forKey: "name")
            try department.setValue(budget, forKey: "budget")
            departments[name] = department
        }
        let employees: [(String, String, Int32, String?)] = [
            ("Ann", "Lee", 120_000, "Engineering"), ("Bob", "Smith", 95_000, "Engineering"),
            ("Cleo", "Ray", 70_000, "Sales"), ("Dan", "Wu", 64_000, "Sales"), ("Eve", "Kim", 52_000, nil),
        ]
        for (first, last, salary, department) in employees {
            let employee = try context.insertNewObject(forEntityName: "Employee")
            try employee.setValue(first, forKey: "firstName")
            try employee.setValue(last, forKey: "lastName")
            try employee.setValue(salary, forKey: "salary")
            try employee.setValue(department.flatMap { departments[$0] }, forKey: "department")
        }
        try context.save()
        return container
    }

    /// A container over a new store file in a temporary folder, and a function that deletes the folder.
    static func fileContainer() throws -> (PersistentContainer, URL, () -> Void) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-concurrency-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("Company.sqlite")
        return (try container(url: url), url, { try? FileManager.default.removeItem(at: folder) })
    }

    /// The first names of the employees with these IDs, read on a new context of `container`.
    static func firstNames(_ ids: [ManagedObjectID], in container: PersistentContainer) throws -> [String?] {
        let context = container.newContext()
        return try ids.map { try context.existingObject(with: $0).value(forKey: "firstName") as? String }
    }
}
