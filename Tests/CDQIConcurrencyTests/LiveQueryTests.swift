import CDQIPredicate
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore
@testable import CoreDataQueryInterface

/// Live queries (`Query.changes(in:)`, `countChanges(in:)`) over the fixture's five employees:
/// Ann 120000, Bob 95000, Cleo 70000, Dan 64000, Eve 52000 (see `ConcurrencyFixture`). Every expected
/// list and changeset below is worked out by hand from that table and the step's change.
// The limit is generous: under CDQI_E2E the suite shares Swift's cooperative pool (2 threads on 2 cores)
// with tests that wait minutes for subprocess builds, and a 1-minute limit fired in CI while they held it.
@Suite(.timeLimit(.minutes(10))) struct LiveQueryTests: LiveQuerySteps {
    /// Waits up to 5 s for the coordinator's save streams to lose their last subscriber, then expects none.
    static func expectNoSaveSubscribers(_ container: PersistentContainer) async throws {
        var waited = 0
        while container.coordinator.saveStreams.hasSubscribers, waited < 500 {
            try await Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        #expect(!container.coordinator.saveStreams.hasSubscribers)
    }

    @Test("names by salary above 60000: initial value, insert, update, delete by other contexts, batch update and delete")
    func typedRowsFollowEverySave() async throws {
        let container = try ConcurrencyFixture.container()
        let live = Query.from(Employee.self).filter { $0.salary > 60_000 }.order { $0.salary }.select { $0.firstName }
            .changes(in: container)
        var iterator = live.makeAsyncIterator()

        let initial = try #require(try await iterator.next())
        #expect(initial.isInitial)
        #expect(initial.results == ["Dan", "Cleo", "Bob", "Ann"])
        #expect(initial.inserted == [0, 1, 2, 3] && initial.removed.isEmpty && initial.moved.isEmpty)
        var previous = initial.results

        // Fay 80000 goes between Cleo (70000) and Bob (95000).
        try await write(container) { try self.hire("Fay", salary: 80_000, in: $0) }
        let hired = try #require(try await iterator.next())
        #expect(!hired.isInitial)
        #expect(hired.results == ["Dan", "Cleo", "Fay", "Bob", "Ann"])
        #expect(hired.inserted == [2] && hired.removed.isEmpty && hired.moved.isEmpty)
        #expect(replay(previous, hired) == hired.results)
        previous = hired.results

        // Dan 64000 → 100000: from first to between Bob (95000) and Ann (120000).
        try await write(container) { try self.employee("Dan", in: $0).setValue(Int32(100_000), forKey: "salary") }
        let raised = try #require(try await iterator.next())
        #expect(raised.results == ["Cleo", "Fay", "Bob", "Dan", "Ann"])
        #expect(raised.moved == [.init(from: 0, to: 3)] && raised.inserted.isEmpty && raised.removed.isEmpty)
        #expect(replay(previous, raised) == raised.results)
        previous = raised.results

        // Bob leaves.
        try await write(container) { try $0.delete(try self.employee("Bob", in: $0)) }
        let left = try #require(try await iterator.next())
        #expect(left.results == ["Cleo", "Fay", "Dan", "Ann"])
        #expect(left.removed == [2] && left.inserted.isEmpty && left.moved.isEmpty)
        #expect(replay(previous, left) == left.results)
        previous = left.results

        // Batch update: Eve's salary × 3 = 156000, above Ann's 120000: she enters last.
        try await container.performBackgroundTask { context in
            _ = try context.execute(
                BatchUpdateRequest(
                    entityName: "Employee", predicate: try PredicatePrimitives.firstName("Eve"),
                    propertiesToUpdate: ["salary": .expression(try ExpressionNode(format: "salary * 3"))]))
        }
        let tripled = try #require(try await iterator.next())
        #expect(tripled.results == ["Cleo", "Fay", "Dan", "Ann", "Eve"])
        #expect(tripled.inserted == [4] && tripled.removed.isEmpty)
        #expect(replay(previous, tripled) == tripled.results)
        previous = tripled.results

        // Batch delete of Sales: Cleo and Dan (Fay has no department, Ann none in Sales).
        try await container.performBackgroundTask { context in
            _ = try context.execute(
                BatchDeleteRequest(
                    fetchRequest: FetchRequest(
                        entityName: "Employee", predicate: try PredicateNode(format: "department.name == %@", "Sales"))))
        }
        let closed = try #require(try await iterator.next())
        #expect(closed.results == ["Fay", "Ann", "Eve"])
        #expect(closed.removed == [0, 2] && closed.inserted.isEmpty && closed.moved.isEmpty)
        #expect(replay(previous, closed) == closed.results)
    }

    @Test("object IDs: an edit of a listed object is an update in place; an unrelated save yields nothing")
    func idResultsReportUpdatesInPlace() async throws {
        let container = try ConcurrencyFixture.container()
        var iterator = Query.from(Employee.self).filter { $0.salary > 90_000 }.order { $0.salary }
            .changes(in: container).makeAsyncIterator()
        let initial = try #require(try await iterator.next())
        #expect(try ConcurrencyFixture.firstNames(initial.results, in: container) == ["Bob", "Ann"])

        // Ann's last name is no key of the query: same list, Ann (offset 1) updated.
        try await write(container) { try self.employee("Ann", in: $0).setValue("Lee-Park", forKey: "lastName") }
        let renamed = try #require(try await iterator.next())
        #expect(renamed.results == initial.results)
        #expect(renamed.updated == [1] && renamed.inserted.isEmpty && renamed.removed.isEmpty && renamed.moved.isEmpty)

        // A department's budget and an employee outside the list: nothing to tell. Then Gus 200000 is hired,
        // and the next element is his arrival alone (last, offset 2).
        try await write(container) { context in
            let legal = try #require(try context.from(Department.self).filter { $0.name == "Legal" }.first())
            try legal.setValue(Decimal(10), forKey: "budget")
            try self.employee("Eve", in: context).setValue("Kim-Lo", forKey: "lastName")
        }
        try await Task.sleep(for: .milliseconds(200))
        try await write(container) { try self.hire("Gus", salary: 200_000, in: $0) }
        let hired = try #require(try await iterator.next())
        #expect(try ConcurrencyFixture.firstNames(hired.results, in: container) == ["Bob", "Ann", "Gus"])
        #expect(hired.inserted == [2] && hired.updated.isEmpty && hired.removed.isEmpty)

        // A batch update of Bob's last name: Bob (offset 0) updated.
        try await container.performBackgroundTask { context in
            _ = try context.execute(
                BatchUpdateRequest(
                    entityName: "Employee", predicate: try PredicatePrimitives.firstName("Bob"),
                    propertiesToUpdate: ["lastName": .value("Smyth")]))
        }
        let batch = try #require(try await iterator.next())
        #expect(batch.results == hired.results && batch.updated == [0])
    }

    @Test("the changeset is worked out from keys: equal lists tell nothing, and a removal plus an insertion of one key is a move")
    func differenceOfKeys() throws {
        let a = LiveRowKey.row(["n": .string("a")]), b = LiveRowKey.row(["n": .string("b")]), c = LiveRowKey.row(["n": .string("c")])
        func change(_ from: [LiveRowKey]?, _ to: [LiveRowKey], _ results: [Int]) -> LiveQueryChange<Int>? {
            LiveQueryDifference.change(from: from, to: to, results: results, updated: [], objectID: { $0.objectID })
        }
        let same = change([a, b], [a, b], [1, 2])
        #expect(same == nil)
        let moved = try #require(change([a, b, c], [b, c, a], [2, 3, 1]))
        #expect(moved.moved == [.init(from: 0, to: 2)] && moved.inserted.isEmpty && moved.removed.isEmpty)
        let first = try #require(change(nil, [a, b], [1, 2]))
        #expect(first.isInitial && first.inserted == [0, 1])
    }

    @Test("a count and an aggregate yield their new value, and nothing when a save leaves them as they were")
    func countsAndAggregates() async throws {
        let container = try ConcurrencyFixture.container()
        var counts = Query.from(Employee.self).countChanges(in: container).makeAsyncIterator()
        // 120000 + 95000 + 70000 + 64000 + 52000
        var sums = Query.from(Employee.self).select { $0.salary.cdqiSum() }.changes(in: container).makeAsyncIterator()
        #expect(try await counts.next() == 5)
        #expect(try await sums.next()?.results == [401_000])

        try await write(container) { context in
            let legal = try #require(try context.from(Department.self).filter { $0.name == "Legal" }.first())
            try legal.setValue(Decimal(1), forKey: "budget")
        }
        try await write(container) { try self.hire("Fay", salary: 80_000, in: $0) }
        #expect(try await counts.next() == 6)
        let sum = try #require(try await sums.next())
        #expect(sum.results == [481_000] && sum.removed == [0] && sum.inserted == [0])

        try await write(container) { try $0.delete(try self.employee("Eve", in: $0)) }
        #expect(try await counts.next() == 5)
        #expect(try await sums.next()?.results == [429_000])
    }

    @Test("dictionary results cross tasks as Sendable values")
    func dictionaries() async throws {
        let container = try ConcurrencyFixture.container()
        var iterator = Query.from(Employee.self).filter { $0.salary < 60_000 }.select("firstName", "salary")
            .changes(in: container).makeAsyncIterator()
        let initial = try #require(try await iterator.next())
        #expect(initial.results.count == 1)
        #expect(initial.results.first?["firstName"] as? String == "Eve" && initial.results.first?["salary"] as? Int == 52_000)
        try await write(container) { try self.employee("Eve", in: $0).setValue(Int32(53_000), forKey: "salary") }
        let raised = try #require(try await iterator.next())
        #expect(raised.results.first?["salary"] as? Int == 53_000 && raised.removed == [0] && raised.inserted == [0])
    }

    @Test("a write by another coordinator on the store file arrives once refreshIfStoreChanged detects it")
    func externalWrites() async throws {
        let (container, url, cleanUp) = try ConcurrencyFixture.fileContainer()
        defer { cleanUp() }
        let watcher = container.newContext()
        #expect(try watcher.refreshIfStoreChanged() == nil)  // tracking starts
        var iterator = Query.from(Employee.self).filter { $0.salary > 100_000 }.select { $0.firstName }
            .changes(in: container).makeAsyncIterator()
        #expect(try await iterator.next()?.results == ["Ann"])

        let other = try PersistentContainer(model: try ConcurrencyFixture.model(), url: url)
        let context = other.newContext()
        try hire("Hal", salary: 150_000, in: context)
        try context.save()
        #expect(try watcher.refreshIfStoreChanged()?.inserted.count == 1)
        let arrived = try #require(try await iterator.next())
        #expect(Set(arrived.results) == ["Ann", "Hal"])
    }

    @Test("cancelling the iterating task ends the sequence and stops watching the coordinator")
    func cancellationReleasesTheObserver() async throws {
        let container = try ConcurrencyFixture.container()
        #expect(!container.coordinator.saveStreams.hasSubscribers)
        try await expectCancellationEndsTheLoop(container) { started in
            var elements = 0
            for try await _ in Query.from(Employee.self).ids().changes(in: container) {
                elements += 1
                started.yield()
            }
            return elements
        }
    }

    @Test("leaving the loop early also stops watching")
    func breakReleasesTheObserver() async throws {
        let container = try ConcurrencyFixture.container()
        for try await change in Query.from(Employee.self).ids().changes(in: container) {
            #expect(change.results.count == 5)
            break
        }
        try await Self.expectNoSaveSubscribers(container)
    }

    @Test("an actor keeps a live list up to date (Swift 6 strict concurrency)")
    func fromAnActor() async throws {
        let container = try ConcurrencyFixture.container()
        let board = HighEarnerBoard()
        let watching = Task { try await board.watch(container) }
        while await board.names.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        #expect(await board.names == ["Ann", "Bob"])
        try await write(container) { try self.hire("Ivy", salary: 99_000, in: $0) }
        while await board.names.count < 3 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(await board.names == ["Ann", "Ivy", "Bob"])
        watching.cancel()
        try await watching.value
    }
}

/// The predicate `firstName == name`.
private enum PredicatePrimitives {
    static func firstName(_ name: String) throws -> PredicateNode {
        try PredicateNode(format: "firstName == %@", name)
    }
}
