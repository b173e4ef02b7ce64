import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore
@testable import CoreDataQueryInterface

/// Live queries of one context (`Query.changes(in: context)`, `countChanges(in: context)`) over the
/// fixture's five employees: Ann 120000, Bob 95000, Cleo 70000, Dan 64000, Eve 52000 (see
/// `ConcurrencyFixture`). Every expected list and changeset is worked out by hand from that table and
/// the step's change. Each test iterates on its own task, where its context lives.
@Suite(.timeLimit(.minutes(10))) struct ContextLiveQueryTests: LiveQuerySteps {
    /// The first names of `ids`, read in `context` (temporary IDs of its unsaved objects included).
    private func names(_ ids: [ManagedObjectID], in context: ManagedObjectContext) throws -> [String?] {
        try ids.map { try context.existingObject(with: $0).value(forKey: "firstName") as? String }
    }

    @Test("unsaved changes: an insert, a move and a delete are seen once processed; their save keeps every row in place, with permanent IDs")
    func unsavedChangesAreSeenWhenProcessed() async throws {
        let container = try ConcurrencyFixture.container()
        let context = container.newBackgroundContext()
        var iterator = Query.from(Employee.self).filter { $0.salary > 60_000 }.order { $0.salary }
            .changes(in: context).makeAsyncIterator()

        let initial = try #require(try await iterator.next())
        #expect(initial.isInitial)
        #expect(try names(initial.results, in: context) == ["Dan", "Cleo", "Bob", "Ann"])
        var previous = initial.results

        // Fay 80000, not saved, between Cleo (70000) and Bob (95000).
        try hire("Fay", salary: 80_000, in: context)
        context.processPendingChanges()
        let hired = try #require(try await iterator.next())
        #expect(try names(hired.results, in: context) == ["Dan", "Cleo", "Fay", "Bob", "Ann"])
        #expect(hired.inserted == [2] && hired.removed.isEmpty && hired.moved.isEmpty)
        #expect(replay(previous, hired) == hired.results)
        previous = hired.results

        // Dan 64000 → 100000, not saved: from first to between Bob (95000) and Ann (120000).
        try employee("Dan", in: context).setValue(Int32(100_000), forKey: "salary")
        context.processPendingChanges()
        let raised = try #require(try await iterator.next())
        #expect(try names(raised.results, in: context) == ["Cleo", "Fay", "Bob", "Dan", "Ann"])
        #expect(raised.moved == [.init(from: 0, to: 3)] && raised.inserted.isEmpty && raised.removed.isEmpty)
        #expect(replay(previous, raised) == raised.results)
        previous = raised.results

        // Bob deleted, not saved.
        try context.delete(try employee("Bob", in: context))
        context.processPendingChanges()
        let left = try #require(try await iterator.next())
        #expect(try names(left.results, in: context) == ["Cleo", "Fay", "Dan", "Ann"])
        #expect(left.removed == [2] && left.inserted.isEmpty && left.moved.isEmpty)
        #expect(replay(previous, left) == left.results)

        // The save writes Fay (offset 1, now with her permanent ID, in place) and Dan (offset 2): both
        // rows are updated, nothing moves. Then another context's save: Gus 65000 comes first (Cleo,
        // 70000, is now the lowest).
        try context.save()
        let saved = try #require(try await iterator.next())
        #expect(try names(saved.results, in: context) == ["Cleo", "Fay", "Dan", "Ann"])
        #expect(!saved.results[1].isTemporaryID && saved.results[1] != left.results[1])
        #expect(saved.updated == [1, 2] && saved.inserted.isEmpty && saved.removed.isEmpty && saved.moved.isEmpty)
        previous = saved.results
        try await write(container) { try self.hire("Gus", salary: 65_000, in: $0) }
        let gus = try #require(try await iterator.next())
        #expect(try names(gus.results, in: context) == ["Gus", "Cleo", "Fay", "Dan", "Ann"])
        #expect(gus.inserted == [0] && gus.removed.isEmpty && gus.moved.isEmpty)
        #expect(replay(previous, gus) == gus.results)
    }

    @Test("typed rows are what the store holds, as Core Data's dictionary fetches: an unsaved insert shows once saved")
    func typedRowsFollowSaves() async throws {
        let container = try ConcurrencyFixture.container()
        let context = container.newBackgroundContext()
        var iterator = Query.from(Employee.self).filter { $0.salary > 90_000 }.order { $0.salary }.select { $0.firstName }
            .changes(in: context).makeAsyncIterator()
        #expect(try await iterator.next()?.results == ["Bob", "Ann"])

        // Fay 100000: processed but not saved, the rows stay; the save brings her in at offset 1.
        try hire("Fay", salary: 100_000, in: context)
        context.processPendingChanges()
        try context.save()
        let saved = try #require(try await iterator.next())
        #expect(saved.results == ["Bob", "Fay", "Ann"])
        #expect(saved.inserted == [1] && saved.removed.isEmpty && saved.moved.isEmpty)
    }

    @Test("object IDs: an unsaved insert has its temporary ID; after the save the same row has the permanent one, reported as updated")
    func savedInsertKeepsItsRow() async throws {
        let container = try ConcurrencyFixture.container()
        let context = container.newBackgroundContext()
        var iterator = Query.from(Employee.self).filter { $0.salary > 90_000 }.order { $0.salary }
            .changes(in: context).makeAsyncIterator()
        let initial = try #require(try await iterator.next())
        #expect(try ConcurrencyFixture.firstNames(initial.results, in: container) == ["Bob", "Ann"])

        // Fay 100000 between Bob (95000) and Ann (120000), not saved.
        try hire("Fay", salary: 100_000, in: context)
        context.processPendingChanges()
        let hired = try #require(try await iterator.next())
        #expect(hired.results.count == 3 && hired.inserted == [1] && hired.removed.isEmpty)
        let temporary = hired.results[1]
        #expect(temporary.isTemporaryID)
        #expect(hired.results[0] == initial.results[0] && hired.results[2] == initial.results[1])

        try context.save()
        let saved = try #require(try await iterator.next())
        #expect(saved.results.count == 3)
        #expect(!saved.results[1].isTemporaryID && saved.results[1] != temporary)
        #expect(saved.updated == [1] && saved.inserted.isEmpty && saved.removed.isEmpty && saved.moved.isEmpty)
        #expect(try ConcurrencyFixture.firstNames(saved.results, in: container) == ["Bob", "Fay", "Ann"])
    }

    @Test("counts: with unsaved changes a delete counts at once; without, only saves count")
    func countsWithAndWithoutUnsavedChanges() async throws {
        let container = try ConcurrencyFixture.container()
        let context = container.newBackgroundContext()
        var withUnsaved = Query.from(Employee.self).countChanges(in: context).makeAsyncIterator()
        var storeOnly = Query.from(Employee.self).countChanges(in: context, includingUnsavedChanges: false).makeAsyncIterator()
        #expect(try await withUnsaved.next() == 5)
        #expect(try await storeOnly.next() == 5)

        // Eve deleted here, not saved: 4 with unsaved changes; the store still holds 5.
        try context.delete(try employee("Eve", in: context))
        context.processPendingChanges()
        #expect(try await withUnsaved.next() == 4)

        // Another context hires two: the store holds 7, this context sees 6 (Eve still deleted here). Had
        // the store-only query counted the unsaved delete, it would have said 4, then 6.
        try await write(container) {
            try self.hire("Gus", salary: 65_000, in: $0)
            try self.hire("Hal", salary: 66_000, in: $0)
        }
        #expect(try await storeOnly.next() == 7)
        #expect(try await withUnsaved.next() == 6)

        // The delete saved: both agree on 6.
        try context.save()
        #expect(try await storeOnly.next() == 6)
    }

    @Test("cancelling the iterating task ends the sequence and lets go of the coordinator's and the context's streams")
    func cancellationEndsTheSequence() async throws {
        let container = try ConcurrencyFixture.container()
        try await expectCancellationEndsTheLoop(container) { started in
            let context = container.newBackgroundContext()
            var elements = 0
            for try await _ in Query.from(Employee.self).ids().changes(in: context) {
                elements += 1
                started.yield()
            }
            return elements
        }
    }
}
