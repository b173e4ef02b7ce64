import CDQIStore
import CoreDataQueryInterface
import Foundation

// The shapes server and app code puts a container in, compiled under Swift 6 strict concurrency:
// a `static let`, a property of an actor, a property of a `@MainActor` class, a parameter of
// nonisolated async code. Each calls `performBackgroundTask`, `perform` and the async query forms.
// (The tests in `IsolationShapeTests` run them and check the answers.)

/// A container as a `static let` (it must be `Sendable` for that).
enum SharedStore {
    static let container: PersistentContainer? = try? ConcurrencyFixture.container()
}

/// A service actor holding the container, and a context of its own for work it keeps.
actor EmployeeService {
    let container: PersistentContainer
    /// Made by `newBackgroundContext()` and owned by the actor from then on.
    private let context: ManagedObjectContext

    init(container: PersistentContainer) {
        self.container = container
        context = container.newBackgroundContext()
    }

    /// IDs of the employees earning over `salary`, highest first, through `performBackgroundTask`.
    func idsEarningOver(_ salary: Int32) async throws -> [ManagedObjectID] {
        try await container.performBackgroundTask { context in
            try context.from(Employee.self).filter { $0.salary > salary }.order(ascending: false) { $0.salary }.ids().all()
        }
    }

    /// The number of employees, counted on the actor's own context through `perform`.
    func employeeCount() async throws -> Int {
        try await context.perform { try context.from(Employee.self).count() }
    }

    /// Sets an employee's salary on the actor's own context and saves.
    func setSalary(_ salary: Int32, of id: ManagedObjectID) async throws -> SaveChanges {
        try await context.perform {
            try context.existingObject(with: id).setValue(salary, forKey: "salary")
            return try context.save()
        }
    }

    /// The direct async forms, from an actor.
    func summary() async throws -> (ids: [ManagedObjectID], count: Int, maxima: [(String?, Int32?)], top: [String: any Sendable]?) {
        let query = Query.from(Employee.self).filter { $0.salary > 90_000 }
        let ids = try await query.order(ascending: false) { $0.salary }.ids(in: container)
        let count = try await query.count(in: container)
        let maxima = try await Query.from(Employee.self)
            .select { ($0.department.name, $0.salary.cdqiMax()) }
            .groupBy { $0.department.name }
            .order { $0.department.name }
            .all(in: container)
        let top = try await query.order(ascending: false) { $0.salary }.select("firstName", "salary")
            .limit(1).dictionaries(in: container).first
        return (ids, count, maxima, top)
    }
}

/// A view model on the main actor holding the container, using its view context and background work.
@MainActor final class EmployeeListModel {
    let container: PersistentContainer
    private(set) var names: [String] = []

    init(container: PersistentContainer) {
        self.container = container
    }

    /// Loads the names on a background context, then publishes them on the main actor.
    func load() async throws {
        names = try await container.performBackgroundTask { context in
            try context.from(Employee.self).order { $0.firstName }.array { $0.firstName }.compactMap { $0 }
        }
    }

    /// Counts on the view context, which belongs to the main actor here.
    func countOnViewContext() async throws -> Int {
        let context = container.viewContext
        return try await context.perform { try context.from(Employee.self).count() }
    }

    /// The highest salary, with a direct async form.
    func highestSalary() async throws -> Int32? {
        try await Query.from(Employee.self).value(in: container) { $0.salary.cdqiMax() }
    }
}

/// Nonisolated async code given the container (a request handler's shape).
func namesEarningOver(_ salary: Int32, container: PersistentContainer) async throws -> [String?] {
    let names = try await Query.from(Employee.self).filter { $0.salary > salary }.order { $0.firstName }
        .array(in: container) { $0.firstName }
    let context = container.newBackgroundContext()
    let count = try await context.perform { try context.from(Employee.self).filter { $0.salary > salary }.count() }
    return count == names.count ? names : []
}
