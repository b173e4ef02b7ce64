import CDQIStore
import CoreDataQueryInterface

/// The data set of the README's tour (`Examples/Company`): twelve employees in five departments
/// (Legal has nobody; Liam has no department). `company-server --sample-data` and the load test start
/// from it.
public enum SampleData {
    /// The departments, by name.
    public static let departments = ["Engineering", "Sales", "Marketing", "Support", "Legal"]

    /// The employees.
    public static let employees: [NewEmployee] = [
        NewEmployee(firstName: "Ann", lastName: "Lee", nickName: "Annie", salary: 120_000, department: "Engineering"),
        NewEmployee(firstName: "Bob", lastName: "Smith", salary: 95_000, department: "Engineering"),
        NewEmployee(firstName: "Chloé", lastName: "Martin", nickName: "Clo", salary: 105_000, department: "Engineering"),
        NewEmployee(firstName: "Grace", lastName: "Hopper", nickName: "Amazing Grace", salary: 150_000, department: "Engineering"),
        NewEmployee(firstName: "David", lastName: "Smith", nickName: "Dave", salary: 70_000, department: "Sales"),
        NewEmployee(firstName: "Emma", lastName: "Jones", salary: 82_000, department: "Sales"),
        NewEmployee(firstName: "Frank", lastName: "Müller", nickName: "Frankie", salary: 64_000, department: "Sales"),
        NewEmployee(firstName: "Hugo", lastName: "Renard", salary: 58_000, department: "Marketing"),
        NewEmployee(firstName: "Iris", lastName: "Smithson", nickName: "Irie", salary: 61_000, department: "Marketing"),
        NewEmployee(firstName: "Jack", lastName: "O'Neil", salary: 45_000, department: "Support"),
        NewEmployee(firstName: "Karen", lastName: "Lee", nickName: "Kay", salary: 47_000, department: "Support"),
        NewEmployee(firstName: "Liam", lastName: "Noël", salary: 52_000),
    ]

    /// Inserts the sample data into the store, in one save, unless it has departments already.
    /// - Returns: whether it inserted anything.
    @discardableResult
    public static func insert(into container: PersistentContainer) async throws -> Bool {
        try await container.performBackgroundTask { context in
            guard try context.from(Department.self).count() == 0 else { return false }
            var byName: [String: Department] = [:]
            for name in departments {
                let department = try context.insert(Department.self)
                department.name = name
                byName[name] = department
            }
            for new in employees {
                let employee = try context.insert(Employee.self)
                employee.firstName = new.firstName
                employee.lastName = new.lastName
                employee.nickName = new.nickName
                employee.salary = new.salary
                employee.department = new.department.flatMap { byName[$0] }
            }
            try context.save()
            return true
        }
    }
}
