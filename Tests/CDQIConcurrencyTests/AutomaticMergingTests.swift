import CDQIStore
import CoreDataQueryInterface
import Foundation
import Testing

/// `automaticallyMergesChangesFromParent`: a context following the saves other contexts make through
/// its coordinator. Data set and hand-worked values: see `ConcurrencyFixture` (the fixture's one save
/// leaves every row at version 1).
@Suite("Concurrency: automatic merging of other contexts' saves")
struct AutomaticMergingTests {
    /// The employee with this first name, fetched (loaded) in `context`.
    private func employee(_ firstName: String, in context: ManagedObjectContext) throws -> Employee {
        try #require(try context.from(Employee.self).filter { $0.firstName == firstName }.first())
    }

    private func salary(_ object: ManagedObject) throws -> Int32? {
        try object.value(forKey: "salary") as? Int32
    }

    @Test("an updated object held unchanged takes the saved values at the next fetch, not before")
    func updatesArriveAtTheNextFetch() throws {
        let container = try ConcurrencyFixture.container()
        let follower = container.newContext()
        follower.automaticallyMergesChangesFromParent = true
        #expect(follower.automaticallyMergesChangesFromParent)
        let ann = try employee("Ann", in: follower)
        #expect(try salary(ann) == 120_000)

        let writer = container.newContext()
        try employee("Ann", in: writer).setValue(Int32(125_000), forKey: "salary")
        let changes = try writer.save()
        #expect(changes.updated == [ann.objectID])

        // Nothing reaches into the follower between its calls: Ann is still loaded with the old value.
        #expect(!ann.isFault)
        #expect(try salary(ann) == 120_000)
        // Its next fetch (of anything) merges first: Ann becomes a fault and reads 125000.
        #expect(try follower.count(for: FetchRequest(entityName: "Department")) == 3)
        #expect(ann.isFault)
        #expect(try salary(ann) == 125_000)
    }

    @Test("a context that does not follow keeps what it loaded")
    func notFollowingMergesNothing() throws {
        let container = try ConcurrencyFixture.container()
        let other = container.newContext()
        #expect(!other.automaticallyMergesChangesFromParent)
        let ann = try employee("Ann", in: other)
        let writer = container.newContext()
        try employee("Ann", in: writer).setValue(Int32(125_000), forKey: "salary")
        try writer.save()
        _ = try other.count(for: FetchRequest(entityName: "Employee"))
        #expect(!ann.isFault)
        #expect(try salary(ann) == 120_000)
    }

    @Test("a deleted object becomes an invalidated fault that throws faultNotFulfilled")
    func deletesInvalidate() async throws {
        let container = try ConcurrencyFixture.container()
        let follower = container.newContext()
        follower.automaticallyMergesChangesFromParent = true
        let eve = try employee("Eve", in: follower)
        let eveID = eve.objectID

        let writer = container.newContext()
        try writer.delete(try employee("Eve", in: writer))
        #expect(try writer.save().deleted == [eveID])

        // The merge happens when the follower next runs something.
        let left = await follower.perform { follower.registeredObject(for: eveID) }
        #expect(left == nil)
        #expect(eve.isFault)
        #expect(throws: ManagedObjectError.faultNotFulfilled(objectID: eveID.uriString)) {
            _ = try eve.value(forKey: "firstName")
        }
        #expect {
            _ = try follower.existingObject(with: eveID)
        } throws: { error in
            guard case ContextError.objectNotFound(let uri) = error else { return false }
            return uri == eveID.uriString
        }
        // 5 employees less Eve.
        #expect(try follower.count(for: FetchRequest(entityName: "Employee")) == 4)
        // After a reset the invalidated object has left the context.
        follower.reset()
        #expect(throws: ManagedObjectError.noContext(entity: "Employee")) { _ = try eve.value(forKey: "firstName") }
    }

    @Test("an object with unsaved changes is left for the merge policy at the next save")
    func unsavedChangesMeetTheMergePolicy() throws {
        let (container, url, cleanUp) = try ConcurrencyFixture.fileContainer()
        defer { cleanUp() }
        let follower = container.newContext()
        follower.automaticallyMergesChangesFromParent = true
        let bob = try employee("Bob", in: follower)
        try bob.setValue("Smyth", forKey: "lastName")  // unsaved

        let writer = container.newContext()
        try employee("Bob", in: writer).setValue(Int32(99_000), forKey: "salary")
        try writer.save()  // Bob's row: version 2

        _ = try follower.count(for: FetchRequest(entityName: "Employee"))
        // Not refreshed: the edit and the values read at version 1 stay.
        #expect(try bob.value(forKey: "lastName") as? String == "Smyth")
        #expect(try salary(bob) == 95_000)
        // The default policy (.error) refuses: read at version 1, the store is at 2.
        #expect {
            try follower.save()
        } throws: { error in
            guard case ContextError.mergeConflicts(let conflicts) = error, conflicts.count == 1 else { return false }
            return conflicts[0].objectID == bob.objectID && conflicts[0].snapshotVersion == 1 && conflicts[0].storeVersion == 2
        }
        // Property by property, the object's change wins and the store's other change stays.
        follower.mergePolicy = .mergeByPropertyObjectTrump
        try follower.save()
        let rows = try Self.rows(url, "SELECT ZLASTNAME, ZSALARY, Z_OPT FROM ZEMPLOYEE WHERE ZFIRSTNAME = 'Bob'")
        #expect(rows == [["Smyth", "99000", "3"]])
    }

    @Test("loaded to-many relationships load their members again after another context's insert")
    func toManyReloads() throws {
        let container = try ConcurrencyFixture.container()
        let follower = container.newContext()
        follower.automaticallyMergesChangesFromParent = true
        let engineering = try #require(try follower.from(Department.self).filter { $0.name == "Engineering" }.first())
        let before = try engineering.objects(forKey: "employees").map { try $0.value(forKey: "firstName") as? String }
        #expect(Set(before) == ["Ann", "Bob"])

        let writer = container.newContext()
        let writerEngineering = try #require(try writer.from(Department.self).filter { $0.name == "Engineering" }.first())
        let fay = try writer.insertNewObject(forEntityName: "Employee")
        try fay.setValue("Fay", forKey: "firstName")
        try fay.setValue("Ng", forKey: "lastName")
        try fay.setValue(Int32(88_000), forKey: "salary")
        try fay.setValue(writerEngineering, forKey: "department")
        try writer.save()

        follower.processPendingMerges()
        let after = try engineering.objects(forKey: "employees").map { try $0.value(forKey: "firstName") as? String }
        #expect(Set(after) == ["Ann", "Bob", "Fay"])
    }

    @Test("a context's own saves are not merged back into it, and turning following off drops what was posted")
    func ownSavesAndTurningOff() throws {
        let container = try ConcurrencyFixture.container()
        let context = container.newContext()
        context.automaticallyMergesChangesFromParent = true
        let ann = try employee("Ann", in: context)
        try ann.setValue(Int32(121_000), forKey: "salary")
        try context.save()
        _ = try context.count(for: FetchRequest(entityName: "Employee"))
        #expect(!ann.isFault)  // its own save is not posted to it

        let writer = container.newContext()
        try employee("Ann", in: writer).setValue(Int32(122_000), forKey: "salary")
        try writer.save()
        context.automaticallyMergesChangesFromParent = false
        _ = try context.count(for: FetchRequest(entityName: "Employee"))
        #expect(!ann.isFault)
        #expect(try salary(ann) == 121_000)
    }

    @Test("an actor-owned follower sees every save made by concurrent background tasks at its next perform")
    func followerOnAnActor() async throws {
        let container = try ConcurrencyFixture.container()
        let follower = FollowingReader(container: container)
        #expect(try await follower.salaries() == [120_000, 95_000, 70_000, 64_000, 52_000])
        // Four tasks each raise one employee's salary by 1000, five times, saving each time.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for name in ["Ann", "Bob", "Cleo", "Dan"] {
                group.addTask {
                    for _ in 0..<5 {
                        try await container.performBackgroundTask { context in
                            let employee = try #require(try context.from(Employee.self).filter { $0.firstName == name }.first())
                            let salary = try employee.value(forKey: "salary") as? Int32 ?? 0
                            try employee.setValue(salary + 1_000, forKey: "salary")
                            try context.save()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        // Ann 125000, Bob 100000, Cleo 75000, Dan 69000; Eve unchanged.
        #expect(try await follower.salaries() == [125_000, 100_000, 75_000, 69_000, 52_000])
    }

    /// Rows read through a separate read-only connection to the file, every column as text.
    private static func rows(_ url: URL, _ sql: String) throws -> [[String]] {
        let connection = try SQLiteConnection(path: url.path, mode: .readOnly)
        let statement = try connection.prepareUncached(sql)
        var rows: [[String]] = []
        while try statement.step() {
            rows.append((0..<statement.columnCount).map { statement.string($0) })
        }
        return rows
    }
}

/// An actor owning a following context whose objects stay loaded between calls.
actor FollowingReader {
    private let context: ManagedObjectContext
    private var employees: [Employee] = []

    init(container: PersistentContainer) {
        let context = container.newBackgroundContext()
        context.automaticallyMergesChangesFromParent = true
        self.context = context
    }

    /// The salaries of Ann, Bob, Cleo, Dan and Eve, from the objects loaded on the first call.
    func salaries() async throws -> [Int32?] {
        try await context.perform {
            if employees.isEmpty {
                employees = try context.from(Employee.self).order { $0.firstName }.all()
            }
            return try employees.map { try $0.value(forKey: "salary") as? Int32 }
        }
    }
}
