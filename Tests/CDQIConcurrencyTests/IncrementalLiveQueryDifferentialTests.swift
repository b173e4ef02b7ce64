import CDQIPredicate
import CDQIStore
import CDQITestSupport
import CoreDataQueryInterface
import Foundation
import Testing

/// Live object-ID queries, which keep their results incrementally (issue 17, W13), checked against
/// fresh fetches: random inserts, updates of filtered and sorted keys, deletes, department changes,
/// batch updates and deletes, saved by other contexts, and (on a context) unsaved edits and saves of
/// the observing context. Three queries: salary alone (ties by primary key), a string filter with a
/// descending sort, and a filter and sort through the department (changes to departments refetch).
///
/// After each random step a *marker* write follows (the previous marker deleted, a new one inserted,
/// matching every query), so that an element always comes. Every element must equal a fresh fetch
/// after the step or after the marker (events may be delivered apart), and replaying its changeset
/// over the previous element's results must give its results exactly (a row saved in place takes its
/// permanent ID, reported as updated). The observing context merges
/// other contexts' saves (so its objects hold the stored values), except in two cases that check the
/// refetching path of a context that does not.
@Suite(.timeLimit(.minutes(10))) struct IncrementalLiveQueryDifferentialTests: LiveQuerySteps {
    static func query(_ index: Int) -> Query<Employee, ManagedObjectID> {
        switch index {
        case 0: Query.from(Employee.self).filter { $0.salary > 60_000 }.order { $0.salary }.ids()
        case 1: Query.from(Employee.self).filter { $0.lastName < "n5" }.order(ascending: false) { $0.salary }.order { $0.firstName }.ids()
        default:
            Query.from(Employee.self).filter { $0.department.name == "Sales" || $0.salary > 150_000 }
                .order { $0.department.name }.order { $0.salary }.ids()
        }
    }

    static let cases: [(seed: Int, query: Int)] = (1...4).flatMap { seed in (0..<3).map { (seed, $0) } }

    /// One random change on `context` (not saved): inserts, salary and last-name updates, deletes,
    /// department moves and renames, or several at once.
    static func randomEdit(_ context: ManagedObjectContext, _ random: inout SeededGenerator, counter: inout Int) throws {
        let all = try context.from(Employee.self).filter { $0.firstName != "marker" }.order { $0.firstName }.all()
        let departments = try context.from(Department.self).order { $0.name }.all()
        func salary() -> Int32 { Int32(40 + random.below(100)) * 1_000 }
        func insert() throws {
            counter += 1
            let employee = try context.insertNewObject(forEntityName: "Employee")
            try employee.setValue("n\(counter)", forKey: "firstName")
            try employee.setValue("n\(random.below(10))", forKey: "lastName")
            try employee.setValue(salary(), forKey: "salary")
            let pick = random.below(departments.count + 1)
            try employee.setValue(pick < departments.count ? departments[pick] : nil, forKey: "department")
        }
        func some() -> ManagedObject? { all.isEmpty ? nil : all[random.below(all.count)] }
        switch random.below(8) {
        case 0, 1:
            for _ in 0...random.below(3) { try insert() }
        case 2:
            try some()?.setValue(salary(), forKey: "salary")
        case 3:
            try some()?.setValue("n\(random.below(10))", forKey: "lastName")
        case 4:
            if let employee = some() { try context.delete(employee) }
        case 5:
            let pick = random.below(departments.count + 1)
            try some()?.setValue(pick < departments.count ? departments[pick] : nil, forKey: "department")
        case 6:
            let names = ["Sales", "Engineering", "Legal", "Ops"]
            try departments[random.below(departments.count)].setValue(names[random.below(names.count)], forKey: "name")
        default:
            try insert()
            try some()?.setValue(salary(), forKey: "salary")
            if let employee = some() { try context.delete(employee) }
        }
    }

    /// A batch update or delete on `context` (written at once).
    static func randomBatch(_ context: ManagedObjectContext, _ random: inout SeededGenerator) throws {
        let salary = Int32(40 + random.below(100)) * 1_000
        if random.below(2) == 0 {
            _ = try context.from(Employee.self).filter { $0.salary < salary && $0.firstName != "marker" }
                .batchUpdate { employee, update in update.increase(employee.salary, by: 7_000) }
        } else {
            _ = try context.from(Employee.self).filter { $0.salary > salary && $0.salary < salary + 15_000 }.batchDelete()
        }
    }

    /// Deletes the marker and inserts a new one (salary 200000, last name "a", in no department).
    static func moveMarker(_ context: ManagedObjectContext) throws {
        for marker in try context.from(Employee.self).filter({ $0.firstName == "marker" }).all() { try context.delete(marker) }
        let marker = try context.insertNewObject(forEntityName: "Employee")
        try marker.setValue("marker", forKey: "firstName")
        try marker.setValue("a", forKey: "lastName")
        try marker.setValue(Int32(200_000), forKey: "salary")
    }

    /// Takes elements until one shows `target`; each must show `intermediate` or `target`, replay
    /// exactly over the one before, and tell something.
    static func expectElements<I: AsyncIteratorProtocol>(
        _ iterator: inout I, last: inout [ManagedObjectID], intermediate: [ManagedObjectID], target: [ManagedObjectID],
        _ where: String
    ) async throws where I.Element == LiveQueryChange<ManagedObjectID> {
        for _ in 0..<4 {
            let change = try #require(try await iterator.next(), "\(`where`): the sequence ended")
            #expect(change.results == intermediate || change.results == target, "\(`where`)")
            var replayed = last
            for offset in (change.removed + change.moved.map(\.from)).sorted(by: >) { replayed.remove(at: offset) }
            for offset in (change.inserted + change.moved.map(\.to)).sorted() { replayed.insert(change.results[offset], at: offset) }
            // A row saved since has its permanent ID at the same offset, reported as updated.
            for offset in change.updated where replayed.indices.contains(offset) && replayed[offset].isTemporaryID {
                replayed[offset] = change.results[offset]
            }
            #expect(replayed == change.results, "\(`where`): \(change.removed) \(change.inserted) \(change.moved)")
            #expect(change.results != last || !change.updated.isEmpty, "\(`where`): an element that tells nothing")
            #expect(change.updated.allSatisfy { change.results.indices.contains($0) }, "\(`where`)")
            last = change.results
            if change.results == target { return }
        }
        Issue.record("\(`where`): no element showed the fresh fetch")
    }

    @Test("a container's live query: each element equals a fresh fetch, its changeset replays", arguments: cases)
    func containerLiveQuery(seed: Int, query index: Int) async throws {
        var random = SeededGenerator(seed: UInt64(seed * 31 + index))
        let container = try ConcurrencyFixture.container()
        let query = Self.query(index)
        func fresh() throws -> [ManagedObjectID] { try query.all(managedObjectContext: container.newContext()) }
        var iterator = query.changes(in: container).makeAsyncIterator()
        var last = try #require(try await iterator.next()).results
        #expect(last == (try fresh()))
        var counter = 0
        for step in 0..<60 {
            let context = container.newContext()
            if random.below(6) == 0 {
                try Self.randomBatch(context, &random)
            } else {
                try Self.randomEdit(context, &random, counter: &counter)
                try context.save()
            }
            let afterStep = try fresh()
            let marker = container.newContext()
            try Self.moveMarker(marker)
            try marker.save()
            try await Self.expectElements(
                &iterator, last: &last, intermediate: afterStep, target: try fresh(), "seed \(seed) query \(index) step \(step)")
        }
    }

    @Test(
        "a context's live query with its unsaved changes: each element equals the context's fetch",
        arguments: cases.map { ($0.seed, $0.query, true) } + [(1, 0, false), (2, 2, false)])
    func contextLiveQuery(seed: Int, query index: Int, merging: Bool) async throws {
        var random = SeededGenerator(seed: UInt64(seed * 37 + index))
        let container = try ConcurrencyFixture.container()
        let query = Self.query(index)
        let context = container.newContext()
        // A merging context is kept incrementally; one that does not merge is fetched again each time.
        context.automaticallyMergesChangesFromParent = merging
        func fresh() throws -> [ManagedObjectID] { try query.all(managedObjectContext: context) }
        var iterator = query.changes(in: context).makeAsyncIterator()
        var last = try #require(try await iterator.next()).results
        #expect(last == (try fresh()))
        var counter = 0
        for step in 0..<60 {
            // Unsaved edits here, a save of this context, or another context's save or batch write; the
            // marker follows through the same source, so that the events arrive in order.
            let markerHere: Bool
            switch random.below(6) {
            case 0, 1, 2:
                try Self.randomEdit(context, &random, counter: &counter)
                context.processPendingChanges()
                markerHere = true
            case 3:
                do {
                    try context.save()
                } catch {
                    // Another context deleted or changed a row edited here: start again from the store.
                    context.rollback()
                }
                markerHere = true
            case 4:
                let other = container.newContext()
                try Self.randomEdit(other, &random, counter: &counter)
                try other.save()
                markerHere = false
            default:
                try Self.randomBatch(container.newContext(), &random)
                markerHere = false
            }
            let afterStep = try fresh()
            if markerHere {
                try Self.moveMarker(context)
                context.processPendingChanges()
            } else {
                let other = container.newContext()
                try Self.moveMarker(other)
                try other.save()
            }
            try await Self.expectElements(
                &iterator, last: &last, intermediate: afterStep, target: try fresh(), "seed \(seed) query \(index) step \(step)")
        }
    }
}
