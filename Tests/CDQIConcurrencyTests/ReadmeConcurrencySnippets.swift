import CDQIStore
import CoreDataQueryInterface
import Foundation

// The snippets of the README's Concurrency section and of the Concurrency article
// (Sources/CoreDataQueryInterface/CoreDataQueryInterface.docc/Concurrency.md), verbatim, so that they
// compile under Swift 6 strict concurrency; `ReadmeConcurrencyTests` runs them. Keep the two in step.

// MARK: A read in a request handler

func highEarners(in container: PersistentContainer) async throws -> [ManagedObjectID] {
    try await Query.from(Employee.self)
        .filter { $0.salary > 100_000 }
        .order(ascending: false) { $0.salary }
        .ids(in: container)
}

// MARK: Typed rows

func payroll(in container: PersistentContainer) async throws -> [(String?, Int32?)] {
    try await Query.from(Employee.self)
        .select { ($0.department.name, $0.salary.cdqiSum()) }
        .groupBy { $0.department.name }
        .order { $0.department.name }
        .all(in: container)
}

// MARK: A write in a request handler

func raise(_ id: ManagedObjectID, by amount: Int32, in container: PersistentContainer) async throws {
    try await container.performBackgroundTask { context in
        let employee = try context.existingObject(with: id)
        let salary = try employee.value(forKey: "salary") as? Int32 ?? 0
        try employee.setValue(salary + amount, forKey: "salary")
        try context.save()
    }
}

// MARK: An actor that keeps a context

actor EmployeeCache {
    private let context: ManagedObjectContext

    init(container: PersistentContainer) {
        let context = container.newBackgroundContext()
        context.automaticallyMergesChangesFromParent = true
        self.context = context
    }

    func firstName(of id: ManagedObjectID) async throws -> String? {
        try await context.perform {
            try context.existingObject(with: id).value(forKey: "firstName") as? String
        }
    }
}

// MARK: The main actor

@MainActor final class EmployeeList {
    let container: PersistentContainer
    private(set) var names: [String] = []

    init(container: PersistentContainer) {
        self.container = container
    }

    func reload() async throws {
        names = try await Query.from(Employee.self)
            .order { $0.firstName }
            .array(in: container) { $0.firstName }
            .compactMap { $0 }
    }
}
