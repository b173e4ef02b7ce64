import CDQIStore
import CDQITestSupport
import CoreDataQueryInterface
import Foundation
import Testing

/// Eight tasks, each with a context of its own that follows the others' saves, doing random inserts,
/// deletes, counter increments, fetches and saves on one store file, for several seeds.
///
/// What must hold, whatever the interleaving:
/// - everything finishes (no deadlock) and `PRAGMA integrity_check` says `ok`;
/// - no acknowledged save is lost: the employees the tasks inserted and did not delete in saves that
///   succeeded are exactly the ones in the store, and the salary of the five fixture employees (used as
///   counters) grew by exactly the increments of the saves that succeeded;
/// - conflicts follow the merge policy: with `.error`, a save that changed a counter another task
///   changed since it was read is refused (and the task rolls back), never written over;
/// - fetches see whole saves in order: a task's readings of the counters' total never go down, and
///   lie between the starting total and the final one.
@Suite("Concurrency: stress")
struct ConcurrentStressTests {
    /// The fixture's salaries: 120000 + 95000 + 70000 + 64000 + 52000.
    private static let startingTotal = 401_000

    /// What one task had acknowledged: the names it inserted and still has, the increments it saved,
    /// the totals it read, and how many of its saves were refused.
    private struct TaskOutcome: Sendable {
        var names: Set<String> = []
        var increments = 0
        var totals: [Int] = []
        var refused = 0
    }

    @Test("8 tasks of random work on one store", arguments: [UInt64(1), 2, 3])
    func randomWork(seed: UInt64) async throws {
        let (container, url, cleanUp) = try ConcurrencyFixture.fileContainer()
        defer { cleanUp() }
        let outcomes = try await withThrowingTaskGroup(of: TaskOutcome.self) { group in
            for task in 0..<8 {
                group.addTask { try await Self.work(task: task, seed: seed, container: container) }
            }
            var outcomes: [TaskOutcome] = []
            for try await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        let expectedNames = outcomes.reduce(into: Set<String>()) { $0.formUnion($1.names) }
        let increments = outcomes.reduce(0) { $0 + $1.increments }
        let inserted = try await Query.from(Employee.self).filter { $0.lastName == "T" }.array(in: container) { $0.firstName }
        #expect(Set(inserted.compactMap { $0 }) == expectedNames)
        #expect(inserted.count == expectedNames.count)
        let total = try await Query.from(Employee.self).filter { $0.lastName != "T" }.value(in: container) { $0.salary.cdqiSum() }
        #expect(total.map(Int.init) == Self.startingTotal + increments)
        for outcome in outcomes {
            #expect(zip(outcome.totals, outcome.totals.dropFirst()).allSatisfy { $0 <= $1 })
            #expect(outcome.totals.allSatisfy { $0 >= Self.startingTotal && $0 <= Self.startingTotal + increments })
        }
        // The run exercised both outcomes: saves acknowledged, and saves refused by `.error` (the tasks
        // interleave at every operation, so counters read by one are changed by others before it saves).
        #expect(increments > 0)
        #expect(outcomes.contains { $0.refused > 0 })
        let check = try SQLiteConnection(path: url.path, mode: .readOnly).prepareUncached("PRAGMA integrity_check")
        #expect(try check.step() && check.string(0) == "ok")
    }

    /// One task's 40 random operations on a context of its own.
    private static func work(task: Int, seed: UInt64, container: PersistentContainer) async throws -> TaskOutcome {
        var random = SeededGenerator(seed: seed &* 1_000 &+ UInt64(task))
        let context = container.newBackgroundContext()
        context.automaticallyMergesChangesFromParent = true
        var outcome = TaskOutcome()
        // Unsaved work, acknowledged when a save succeeds.
        var pendingInserted: Set<String> = [], pendingDeleted: Set<String> = [], pendingIncrements = 0
        var counter = 0
        for _ in 0..<40 {
            try await context.perform {
                switch random.below(6) {
                case 0:
                    counter += 1
                    let name = "t\(task)-\(counter)"
                    let employee = try context.insertNewObject(forEntityName: "Employee")
                    try employee.setValue(name, forKey: "firstName")
                    try employee.setValue("T", forKey: "lastName")
                    pendingInserted.insert(name)
                case 1:
                    let mine = try context.from(Employee.self).filter { $0.lastName == "T" }.all()
                        .filter { ($0.firstName ?? "").hasPrefix("t\(task)-") }
                    if !mine.isEmpty {
                        let victim = mine[random.below(mine.count)]
                        let name = victim.firstName ?? ""
                        try context.delete(victim)
                        if !pendingInserted.contains(name) { pendingDeleted.insert(name) }
                        pendingInserted.remove(name)
                    }
                case 2, 3:
                    let counters = try context.from(Employee.self).filter { $0.lastName != "T" }.order { $0.firstName }.all()
                    if !counters.isEmpty {
                        let target = counters[random.below(counters.count)]
                        let salary = try target.value(forKey: "salary") as? Int32 ?? 0
                        try target.setValue(salary + 1, forKey: "salary")
                        pendingIncrements += 1
                    }
                case 4:
                    let total = try context.from(Employee.self).filter { $0.lastName != "T" }.value { $0.salary.cdqiSum() }
                    outcome.totals.append(Int(total ?? 0))
                default:
                    do {
                        try context.save()
                        outcome.names.formUnion(pendingInserted)
                        outcome.names.subtract(pendingDeleted)
                        outcome.increments += pendingIncrements
                    } catch ContextError.mergeConflicts {
                        context.rollback()
                        outcome.refused += 1
                    }
                    pendingInserted = []
                    pendingDeleted = []
                    pendingIncrements = 0
                }
            }
            await Task.yield()
        }
        try await context.perform {
            do {
                try context.save()
                outcome.names.formUnion(pendingInserted)
                outcome.names.subtract(pendingDeleted)
                outcome.increments += pendingIncrements
            } catch ContextError.mergeConflicts {
                context.rollback()
                outcome.refused += 1
            }
        }
        return outcome
    }
}
