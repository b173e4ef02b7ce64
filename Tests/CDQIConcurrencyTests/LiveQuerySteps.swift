import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore
@testable import CoreDataQueryInterface

/// The steps the live-query suites take on the fixture's employees (see `ConcurrencyFixture`), and the
/// replay of a changeset that checks it.
protocol LiveQuerySteps {}

extension LiveQuerySteps {
    /// Saves `body`'s changes on a new context of `container`, in a task of its own.
    func write(_ container: PersistentContainer, _ body: @escaping @Sendable (ManagedObjectContext) throws -> Void) async throws {
        try await container.performBackgroundTask { context in
            try body(context)
            try context.save()
        }
    }

    func employee(_ name: String, in context: ManagedObjectContext) throws -> Employee {
        try #require(try context.from(Employee.self).filter { $0.firstName == name }.first())
    }

    func hire(_ name: String, salary: Int32, in context: ManagedObjectContext) throws {
        let employee = try context.insertNewObject(forEntityName: "Employee")
        try employee.setValue(name, forKey: "firstName")
        try employee.setValue(name, forKey: "lastName")
        try employee.setValue(salary, forKey: "salary")
    }

    /// The previous list with the change applied as `CollectionDifference` applies one: removals and
    /// move sources from the highest offset down, then insertions and move destinations from the lowest.
    func replay<T>(_ previous: [T], _ change: LiveQueryChange<T>) -> [T] {
        var list = previous
        for offset in (change.removed + change.moved.map(\.from)).sorted(by: >) { list.remove(at: offset) }
        for offset in (change.inserted + change.moved.map(\.to)).sorted() { list.insert(change.results[offset], at: offset) }
        return list
    }

    /// Runs `watch` in a task of its own (it yields to `started` once per element), waits for its first
    /// element, cancels the task, and checks that the loop ended after that one element and let go of
    /// the coordinator's save stream.
    func expectCancellationEndsTheLoop(
        _ container: PersistentContainer,
        _ watch: @escaping @Sendable (_ started: AsyncStream<Void>.Continuation) async throws -> Int
    ) async throws {
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let watcher = Task { try await watch(startedContinuation) }
        var startedIterator = started.makeAsyncIterator()
        _ = await startedIterator.next()
        #expect(container.coordinator.saveStreams.hasSubscribers)
        watcher.cancel()
        #expect(try await watcher.value == 1)
        // The pump lets go of the coordinator's stream once its cancellation is seen.
        try await LiveQueryTests.expectNoSaveSubscribers(container)
    }
}
