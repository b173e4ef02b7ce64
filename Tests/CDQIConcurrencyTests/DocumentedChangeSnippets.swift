import CDQIStore
import CoreDataQueryInterface
import Foundation

// The snippets of the "Live queries" section of the Watching Changes article
// (Sources/CoreDataQueryInterface/CoreDataQueryInterface.docc/WatchingChanges.md), verbatim, so that
// they compile under Swift 6 strict concurrency; `LiveQueryTests` runs the actor. Keep the two in step.

// MARK: A live list in an actor

actor HighEarnerBoard {
    private(set) var names: [String] = []

    func watch(_ container: PersistentContainer) async throws {
        let query = Query.from(Employee.self)
            .filter { $0.salary > 90_000 }
            .order(ascending: false) { $0.salary }
            .select { $0.firstName }
        for try await change in query.changes(in: container) {
            names = change.results.compactMap { $0 }
        }
    }
}

// MARK: Changesets, counts and aggregates

func watchPayroll(in container: PersistentContainer) async throws {
    let byName = Query.from(Employee.self).order { $0.lastName }
    for try await change in byName.changes(in: container) {
        // IDs; offsets to apply to a list view
        print(change.removed, change.inserted, change.moved, change.updated)
    }
    for try await headcount in Query.from(Employee.self).countChanges(in: container) {
        print("employees:", headcount)
    }
    let payroll = Query.from(Employee.self).select { $0.salary.cdqiSum() }
    for try await total in payroll.changes(in: container) {
        print("payroll:", total.results.first.flatMap { $0 } ?? 0)
    }
}

// The snippet of the "From a typed query" section of the Batch Writes article
// (Sources/CoreDataQueryInterface/CoreDataQueryInterface.docc/BatchWrites.md), verbatim;
// `DocumentedSnippetTests` runs it.

func yearEnd(in context: ManagedObjectContext) throws -> (raised: Int, removed: Int) {
    let raised = try context.from(Employee.self)
        .filter { $0.department.name == "Engineering" && $0.salary < 100_000 }
        .batchUpdate { employee, update in
            update.increase(employee.salary, by: 5_000)
            update.set(employee.lastName, to: "Smith")
        }
    let removed = try context.from(Employee.self).filter { $0.salary < 60_000 }.batchDelete()
    return (raised, removed)
}

// MARK: A context's own changes

func watchDraft(in container: PersistentContainer) async throws {
    let context = container.newBackgroundContext()
    let byName = Query.from(Employee.self).order { $0.lastName }
    for try await change in byName.changes(in: context) {
        // the context's own unsaved inserts are here, with temporary IDs
        let names = try change.results.map { try context.existingObject(with: $0).value(forKey: "lastName") }
        print(names, change.inserted, change.removed)
    }
}
