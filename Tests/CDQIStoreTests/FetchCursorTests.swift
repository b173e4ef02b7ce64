import CDQIModel
import CDQIPredicate
import Foundation
import Synchronization
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// Walking fetches a batch at a time with ``FetchCursor``.
@Suite("Fetch cursor")
struct FetchCursorTests {
    /// 2,500 employees with salaries 0, 10, …, 24,990 (employee i earns 10·i), saved to a file store.
    private func savedEmployees() throws -> (PersistentStoreCoordinator, () -> Void) {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        try saveEmployees(through: coordinator)
        return (coordinator, cleanUp)
    }

    /// Saves the 2,500 employees of `savedEmployees`, all in one department, through `coordinator`.
    private func saveEmployees(through coordinator: PersistentStoreCoordinator) throws {
        let context = ManagedObjectContext(coordinator: coordinator)
        let department = try ContextTestSupport.insert(context, "Department", ["name": "Everyone"])
        for i in 0..<2_500 {
            _ = try ContextTestSupport.insert(
                context, "Employee",
                [
                    "firstName": "F\(i)", "lastName": "L\(i)", "salary": Int32(i * 10), "department": department,
                ])
        }
        try context.save()
    }

    /// Departments named "D0", "D1", … inserted into `context`, in order.
    private func insertDepartments(_ count: Int, into context: ManagedObjectContext) throws -> [ManagedObject] {
        try (0..<count).map { d in try ContextTestSupport.insert(context, "Department", ["name": "D\(d)"]) }
    }

    private func salaries(_ cursor: FetchCursor) throws -> [Int32] {
        var result: [Int32] = []
        while let object = try cursor.next() {
            result.append(try #require(try object.value(forKey: "salary") as? Int32))
        }
        return result
    }

    @Test("a file store's rows come in order, filtered, across batches, and the walk ends with nil")
    func walksInOrder() throws {
        let (coordinator, cleanUp) = try savedEmployees()
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        var request = FetchRequest(
            entityName: "Employee", predicate: try PredicateNode(format: "salary >= 1000"),
            sortDescriptors: [FetchSortDescriptor(keyPath: "salary", ascending: false)])
        request.fetchBatchSize = 300
        let cursor = try context.cursor(for: request)
        // salary >= 1000 keeps i = 100…2499: 2,400 employees, from 24,990 down to 1,000.
        let seen = try salaries(cursor)
        #expect(seen.count == 2_400)
        // Typed out: `map { Int32($0 * 10) }` inside #expect took the solver ~1.9 s (issue 14, item 9).
        let expected: [Int32] = (100..<2_500).reversed().map { (i: Int) -> Int32 in Int32(i * 10) }
        #expect(seen == expected)
        #expect(try cursor.next() == nil)
    }

    @Test("objects of walked batches leave the context unless held or changed")
    func releasesWalkedBatches() throws {
        let (coordinator, cleanUp) = try savedEmployees()
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        var request = FetchRequest(entityName: "Employee", sortDescriptors: [FetchSortDescriptor(keyPath: "salary")])
        request.fetchBatchSize = 100
        let cursor = try context.cursor(for: request)
        var held: [ManagedObject] = []
        var changed: ManagedObject?
        var count = 0
        var largestRegistered = 0
        while let object = try cursor.next() {
            if count == 7 { held.append(object) }
            if count == 150 {
                try object.setValue("Changed", forKey: "nickName")
                changed = object
            }
            count += 1
            largestRegistered = max(largestRegistered, context.registeredObjects.count)
        }
        #expect(count == 2_500)
        // One batch of 100, the department (every employee's to-one), the held and the changed
        // employee: never more than 103 at once, where keeping everything would reach 2,501.
        #expect(largestRegistered <= 103)
        let registered = context.registeredObjects
        #expect(registered.contains(held[0]))
        #expect(try registered.contains(#require(changed)))
        #expect(try held[0].value(forKey: "salary") as? Int32 == 70)
        #expect(context.hasChanges)
    }

    @Test("an object of a walked batch that only a weak reference reaches is freed, never reused for another row")
    func weaklyHeldObjectsAreNotReused() throws {
        let (coordinator, cleanUp) = try savedEmployees()
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        var request = FetchRequest(entityName: "Employee", sortDescriptors: [FetchSortDescriptor(keyPath: "salary")])
        request.fetchBatchSize = 100
        let cursor = try context.cursor(for: request)
        weak var weaklyHeld: ManagedObject?
        var held: ManagedObject?
        var seen: [Int32] = []
        while let object = try cursor.next() {
            if seen.count == 5 { weaklyHeld = object }
            if seen.count == 10 { held = object }
            seen.append(try #require(try object.value(forKey: "salary") as? Int32))
        }
        // Employee i earns 10·i: the walk is 0, 10, …, 24,990 whatever objects the batches reuse.
        #expect(seen == (0..<2_500).map { (i: Int) -> Int32 in Int32(i * 10) })
        // Reused as another row's object, it would still be reachable here, with another salary.
        #expect(weaklyHeld == nil)
        let kept = try #require(held)
        #expect(try kept.value(forKey: "salary") as? Int32 == 100)
        #expect(context.registeredObject(for: kept.objectID) === kept)
    }

    @Test("objects of a registered subclass are made for each row, never reused (their initializer runs)")
    func subclassObjectsAreNotReused() throws {
        let (coordinator, cleanUp) = try savedEmployees()
        defer { cleanUp() }
        coordinator.register(CountedEmployee.self, forEntityName: "Employee")
        let context = ManagedObjectContext(coordinator: coordinator)
        var request = FetchRequest(entityName: "Employee")
        request.fetchBatchSize = 100
        let cursor = try context.cursor(for: request)
        var serials = Set<Int>()
        var count = 0
        while let object = try cursor.next() {
            serials.insert(try #require(object as? CountedEmployee).serial)
            count += 1
        }
        #expect(count == 2_500)
        // One initializer run per row: 2,500 different serials.
        #expect(serials.count == 2_500)
    }

    @Test("objects of a class in cdqi's generated shape are reused for later batches' rows, with their values")
    func generatedShapeObjectsAreReused() throws {
        let (coordinator, cleanUp) = try savedEmployees()
        defer { cleanUp() }
        coordinator.register(ReusableEmployee.self, forEntityName: "Employee")
        let context = ManagedObjectContext(coordinator: coordinator)
        var request = FetchRequest(entityName: "Employee", sortDescriptors: [FetchSortDescriptor(keyPath: "salary")])
        request.fetchBatchSize = 100
        let before = ReusableEmployee.madeCount
        let cursor = try context.cursor(for: request)
        var seen: [Int32] = []
        while let object = try cursor.next() {
            seen.append(try #require(object as? ReusableEmployee).salary)
        }
        let made = ReusableEmployee.madeCount - before
        // Employee i earns 10·i: each reused object is filled from its new row.
        #expect(seen == (0..<2_500).map { (i: Int) -> Int32 in Int32(i * 10) })
        // The first batch makes 100 objects; the 24 others reuse them (at most the one object the
        // loop still holds at a batch's end is made anew): far fewer than one per row.
        #expect(made >= 100)
        #expect(made <= 100 + 24)
    }

    @Test("a reused object takes its new row's to-one, or none, and has no changes")
    func reusedObjectsTakeTheirRowsToOne() throws {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        // Employee i earns 10·i and works in department "D(i % 4)", except when i % 4 == 3: none.
        let writer = ManagedObjectContext(coordinator: coordinator)
        let departments = try insertDepartments(3, into: writer)
        for i in 0..<200 {
            _ = try ContextTestSupport.insert(
                writer, "Employee",
                [
                    "firstName": "F\(i)", "lastName": "L\(i)", "salary": Int32(i * 10),
                    "department": i % 4 == 3 ? nil : departments[i % 4],
                ])
        }
        try writer.save()
        coordinator.register(ReusableEmployee.self, forEntityName: "Employee")
        let context = ManagedObjectContext(coordinator: coordinator)
        var request = FetchRequest(entityName: "Employee", sortDescriptors: [FetchSortDescriptor(keyPath: "salary")])
        request.fetchBatchSize = 10
        let before = ReusableEmployee.madeCount
        let cursor = try context.cursor(for: request)
        var seen: [String?] = []
        var changed = 0
        while let object = try cursor.next() {
            let department = try object.value(forKey: "department") as? ManagedObject
            seen.append(try department?.value(forKey: "name") as? String)
            if object.hasChanges || !object.changedValues().isEmpty { changed += 1 }
        }
        let expected: [String?] = (0..<200).map { (i: Int) -> String? in i % 4 == 3 ? nil : "D\(i % 4)" }
        #expect(seen == expected)
        #expect(changed == 0)
        // Reuse happened: 10 objects for the first batch, at most one more for each of the 19 others.
        #expect(ReusableEmployee.madeCount - before <= 10 + 19)
    }

    @Test("a reused object whose to-many was loaded (empty) loads its new row's members")
    func reusedObjectsLoadTheirRowsToMany() throws {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        // D0 and D1 have no employees, D2 three, D3 two.
        let writer = ManagedObjectContext(coordinator: coordinator)
        let departments = try insertDepartments(4, into: writer)
        for (i, d) in [2, 2, 2, 3, 3].enumerated() {
            _ = try ContextTestSupport.insert(
                writer, "Employee", ["firstName": "F\(i)", "lastName": "L\(i)", "department": departments[d]])
        }
        try writer.save()
        coordinator.register(ReusableDepartment.self, forEntityName: "Department")
        let context = ManagedObjectContext(coordinator: coordinator)
        var request = FetchRequest(entityName: "Department", sortDescriptors: [FetchSortDescriptor(keyPath: "name")])
        request.fetchBatchSize = 2
        let before = ReusableDepartment.madeCount
        let cursor = try context.cursor(for: request)
        var members: [[String]] = []
        while let object = try cursor.next() {
            let names = try object.objects(forKey: "employees").map { try #require($0.value(forKey: "firstName") as? String) }
            members.append(names.sorted())
        }
        #expect(members == [[], [], ["F0", "F1", "F2"], ["F3", "F4"]])
        // D2 and D3 were made from D0's and D1's objects, whose loaded (empty) members were dropped.
        #expect(ReusableDepartment.madeCount - before == 2)
    }

    @Test("objects of a hand-written subclass of a generated-shape class are made for each row")
    func subclassOfGeneratedShapeIsNotReused() throws {
        let (coordinator, cleanUp) = try savedEmployees()
        defer { cleanUp() }
        coordinator.register(HandWrittenEmployee.self, forEntityName: "Employee")
        let context = ManagedObjectContext(coordinator: coordinator)
        var request = FetchRequest(entityName: "Employee")
        request.fetchBatchSize = 100
        let before = HandWrittenEmployee.madeCount
        let cursor = try context.cursor(for: request)
        var count = 0
        while let object = try cursor.next() {
            #expect(object is HandWrittenEmployee)
            count += 1
        }
        #expect(count == 2_500)
        // It inherits `cdqiReusableClass` (ReusableEmployee), which is not its own class.
        #expect(HandWrittenEmployee.madeCount - before == 2_500)
    }

    @Test("unsaved changes are part of the walk, as in every fetch")
    func includesUnsavedChanges() throws {
        let (coordinator, cleanUp) = try savedEmployees()
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        _ = try ContextTestSupport.insert(context, "Employee", ["firstName": "New", "lastName": "Hire", "salary": Int32(24_995)])
        var request = FetchRequest(
            entityName: "Employee", predicate: try PredicateNode(format: "salary > 24950"),
            sortDescriptors: [FetchSortDescriptor(keyPath: "salary")])
        request.fetchBatchSize = 2
        // Saved: 24,960, 24,970, 24,980, 24,990; unsaved: 24,995.
        #expect(try salaries(context.cursor(for: request)) == [24_960, 24_970, 24_980, 24_990, 24_995])
    }

    @Test("an in-memory store is walked through its IDs")
    func inMemoryStore() throws {
        let context = try ContextTestSupport.memoryContext("Company")
        for salary in [300, 100, 200] {
            _ = try ContextTestSupport.insert(context, "Employee", ["firstName": "A", "lastName": "B", "salary": Int32(salary)])
        }
        try context.save()
        var request = FetchRequest(entityName: "Employee", sortDescriptors: [FetchSortDescriptor(keyPath: "salary")])
        request.fetchBatchSize = 2
        #expect(try salaries(context.cursor(for: request)) == [100, 200, 300])
    }

    @Test("the walk sees the store as it started, and other contexts save meanwhile")
    func snapshotWhileOthersSave() throws {
        let (coordinator, cleanUp) = try savedEmployees()
        defer { cleanUp() }
        let reader = ManagedObjectContext(coordinator: coordinator)
        let writer = ManagedObjectContext(coordinator: coordinator)
        var request = FetchRequest(entityName: "Employee", sortDescriptors: [FetchSortDescriptor(keyPath: "salary")])
        request.fetchBatchSize = 1_000
        let cursor = try reader.cursor(for: request)
        var count = 0
        while try cursor.next() != nil {
            count += 1
            if count == 10 {
                _ = try ContextTestSupport.insert(writer, "Employee", ["firstName": "Late", "lastName": "Comer", "salary": Int32(99_999)])
                try writer.save()
            }
        }
        #expect(count == 2_500)
        #expect(try reader.count(for: FetchRequest(entityName: "Employee")) == 2_501)
    }

    @Test("a predicate the store cannot run fails when the cursor is made")
    func badPredicate() throws {
        let (coordinator, cleanUp) = try savedEmployees()
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let request = FetchRequest(entityName: "Employee", predicate: try PredicateNode(format: "noSuchKey == 1"))
        #expect(throws: PredicateSQLError.self) { try context.cursor(for: request) }
    }

    /// The 2,500 employees of `savedEmployees`, read through a second coordinator on the same file
    /// with at most `readerCount` readers.
    private func employees(readerCount: Int) throws -> (PersistentStoreCoordinator, () -> Void) {
        let (coordinator, url, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        try saveEmployees(through: coordinator)
        let reading = try PersistentStoreCoordinator(model: coordinator.model, url: url, readerCount: readerCount)
        return (reading, { withExtendedLifetime(coordinator) { cleanUp() } })
    }

    @Test("a cursor takes an idle reader out of the pool for its walk and gives it back at the end")
    func holdsAPooledReader() throws {
        let (coordinator, cleanUp) = try employees(readerCount: 2)
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        // A count alone reads on the idle writer: no reader is opened.
        #expect(try context.count(for: FetchRequest(entityName: "Employee")) == 2_500)
        #expect(coordinator.openReaderCount == 0)
        // A count while another read holds the writer opens one reader, which stays open and idle.
        let counted = try coordinator.withReader { _ in try context.count(for: FetchRequest(entityName: "Employee")) }
        #expect(counted == 2_500)
        #expect(coordinator.openReaderCount == 1)
        var request = FetchRequest(entityName: "Employee", sortDescriptors: [FetchSortDescriptor(keyPath: "salary")])
        request.fetchBatchSize = 1_000
        let cursor = try context.cursor(for: request)
        #expect(coordinator.openReaderCount == 0)
        let walked = try salaries(cursor)
        #expect(walked == (0..<2_500).map { Int32($0 * 10) })
        #expect(coordinator.openReaderCount == 1)
    }

    // The limit catches a hang (a fetch waiting for a reader a cursor holds); it is generous because CI
    // runs this beside the end-to-end builds, which take every core (one minute was exceeded there).
    @Test(
        "fetches never wait for cursors, even when cursors hold more connections than the pool has readers",
        .timeLimit(.minutes(10)))
    func cursorsDoNotStarveFetches() throws {
        let (coordinator, cleanUp) = try employees(readerCount: 1)
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        var request = FetchRequest(entityName: "Employee", sortDescriptors: [FetchSortDescriptor(keyPath: "salary")])
        request.fetchBatchSize = 100
        let cursors = try (0..<3).map { _ in try context.cursor(for: request) }
        for cursor in cursors {
            #expect(try cursor.next()?.value(forKey: "salary") as? Int32 == 0)
        }
        // Each of these reads needs a reader of the pool while three cursors are open.
        #expect(try context.count(for: FetchRequest(entityName: "Employee")) == 2_500)
        let top = FetchRequest(entityName: "Employee", predicate: try PredicateNode(format: "salary >= 24900"))
        #expect(try context.fetch(top).count == 10)
        for cursor in cursors {
            // 2,499 after the first: salaries 10 … 24,990.
            #expect(try salaries(cursor) == (1..<2_500).map { Int32($0 * 10) })
        }
        #expect(coordinator.openReaderCount == 1)
    }

    @Test("with no readers (a reader count of 0) a file store is walked through its IDs, with the same rows")
    func walksWithoutReaders() throws {
        let (coordinator, cleanUp) = try employees(readerCount: 0)
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        var request = FetchRequest(
            entityName: "Employee", predicate: try PredicateNode(format: "salary < 50"),
            sortDescriptors: [FetchSortDescriptor(keyPath: "salary", ascending: false)])
        request.fetchBatchSize = 2
        #expect(try salaries(try context.cursor(for: request)) == [40, 30, 20, 10, 0])
        #expect(coordinator.openReaderCount == 0)
    }
}

/// An employee class whose initializer numbers its objects, so that a test can tell new objects from
/// reused ones.
final class CountedEmployee: ManagedObject {
    private static let made = Mutex(0)
    let serial: Int

    required init(entity: EntityLayout, objectID: ManagedObjectID, context: ManagedObjectContext?) {
        serial = CountedEmployee.made.withLock { made in
            made += 1
            return made
        }
        super.init(entity: entity, objectID: objectID, context: context)
    }
}

/// An employee class in the shape `cdqi` generates (it names itself as its reusable class); the
/// initializer only counts the objects made, which a generated class would not do.
class ReusableEmployee: ManagedObject {
    /// Objects made, per concrete class (its subclass's tests run in parallel with this class's). Guarded
    /// by `madeLock`, an NSLock, which ThreadSanitizer sees through (it does not see inside the prebuilt
    /// Synchronization library's Mutex).
    nonisolated(unsafe) private static var made: [ObjectIdentifier: Int] = [:]
    private static let madeLock = NSLock()
    override class var cdqiReusableClass: ManagedObject.Type { ReusableEmployee.self }

    var salary: Int32 { cdqiInt32(at: 4) ?? -1 }

    /// How many objects of exactly this class were made so far.
    class var madeCount: Int {
        let madeClass = ObjectIdentifier(self)
        return ReusableEmployee.madeLock.withLock { ReusableEmployee.made[madeClass, default: 0] }
    }

    required init(entity: EntityLayout, objectID: ManagedObjectID, context: ManagedObjectContext?) {
        let madeClass = ObjectIdentifier(Self.self)
        ReusableEmployee.madeLock.withLock { ReusableEmployee.made[madeClass, default: 0] += 1 }
        super.init(entity: entity, objectID: objectID, context: context)
    }
}

/// A hand-written subclass of it, which could add stored properties: never reused.
final class HandWrittenEmployee: ReusableEmployee {}

/// A department class in the shape `cdqi` generates, counting the objects made (see ``ReusableEmployee``).
final class ReusableDepartment: ManagedObject {
    nonisolated(unsafe) private static var made = 0
    private static let madeLock = NSLock()
    override class var cdqiReusableClass: ManagedObject.Type { ReusableDepartment.self }

    /// How many objects were made so far.
    static var madeCount: Int { madeLock.withLock { made } }

    required init(entity: EntityLayout, objectID: ManagedObjectID, context: ManagedObjectContext?) {
        ReusableDepartment.madeLock.withLock { ReusableDepartment.made += 1 }
        super.init(entity: entity, objectID: objectID, context: context)
    }
}
