import CDQIStore
import CoreDataQueryInterface
import Foundation
import Testing

/// Runs the README's Concurrency snippets (`ReadmeConcurrencySnippets`) on the data set of
/// `ConcurrencyFixture`, checking values worked out by hand.
@Suite("Concurrency: the README's snippets")
struct ReadmeConcurrencyTests {
    @Test("reads, typed rows and a write, from nonisolated async code")
    func requestHandlerSnippets() async throws {
        let (container, _, cleanUp) = try ConcurrencyFixture.fileContainer()
        defer { cleanUp() }
        // Over 100000: Ann (120000) only.
        let ids = try await highEarners(in: container)
        #expect(try ConcurrencyFixture.firstNames(ids, in: container) == ["Ann"])
        // Sums: no department 52000 (Eve); Engineering 120000 + 95000; Sales 70000 + 64000.
        let rows = try await payroll(in: container)
        #expect(rows.map(\.0) == [nil, "Engineering", "Sales"])
        #expect(rows.map(\.1) == [52_000, 215_000, 134_000])
        // Bob 95000 + 6000 = 101000: now over 100000, below Ann.
        let bob = try #require(try await Query.from(Employee.self).filter { $0.firstName == "Bob" }.ids(in: container).first)
        try await raise(bob, by: 6_000, in: container)
        #expect(try ConcurrencyFixture.firstNames(try await highEarners(in: container), in: container) == ["Ann", "Bob"])
    }

    @Test("an actor's following context sees another context's save at its next perform")
    func actorSnippet() async throws {
        let (container, _, cleanUp) = try ConcurrencyFixture.fileContainer()
        defer { cleanUp() }
        let ann = try #require(try await Query.from(Employee.self).filter { $0.firstName == "Ann" }.ids(in: container).first)
        let cache = EmployeeCache(container: container)
        #expect(try await cache.firstName(of: ann) == "Ann")
        try await container.performBackgroundTask { context in
            try context.existingObject(with: ann).setValue("Anna", forKey: "firstName")
            try context.save()
        }
        #expect(try await cache.firstName(of: ann) == "Anna")
    }

    @Test("a main-actor list reloads from the background")
    @MainActor func mainActorSnippet() async throws {
        let container = try ConcurrencyFixture.container()
        let list = EmployeeList(container: container)
        try await list.reload()
        #expect(list.names == ["Ann", "Bob", "Cleo", "Dan", "Eve"])
    }
}
