import CDQIModel
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// Optimistic locking between two contexts, and each merge policy's outcome.
@Suite("Context conflicts and merge policies")
struct ContextConflictTests {
    /// Saves Ada (salary 100, Lovelace, no nickname); context B then changes salary to 200 and the last
    /// name to Byron and saves; context A, which read Ada before, changes salary to 300 and the nickname.
    private func conflict(
        policy: MergePolicy, secondCoordinator: Bool = false
    ) throws
        -> (result: Result<Void, ContextError>, row: [String], ada: ManagedObject, cleanUp: () -> Void, context: ManagedObjectContext)
    {
        let (coordinator, url, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        let setup = ManagedObjectContext(coordinator: coordinator)
        let saved = try ContextTestSupport.insert(setup, "Employee", ["firstName": "Ada", "lastName": "Lovelace", "salary": 100])
        try setup.save()

        let a = ManagedObjectContext(coordinator: coordinator)
        a.mergePolicy = policy
        let ada = try a.existingObject(with: saved.objectID)
        let otherCoordinator =
            secondCoordinator
            ? try PersistentStoreCoordinator(model: coordinator.model, url: url) : coordinator
        let b = ManagedObjectContext(coordinator: otherCoordinator)
        let adaB = try b.existingObject(with: try #require(b.objectID(forURIString: saved.objectID.uriString)))
        try adaB.setValue(200, forKey: "salary")
        try adaB.setValue("Byron", forKey: "lastName")
        try b.save()

        try ada.setValue(300, forKey: "salary")
        try ada.setValue("Countess", forKey: "nickName")
        let result: Result<Void, ContextError>
        do {
            try a.save()
            result = .success(())
        } catch {
            result = .failure(error)
        }
        let row = try ContextTestSupport.rows(file: url, "SELECT ZSALARY, ZLASTNAME, ZNICKNAME, Z_OPT FROM ZEMPLOYEE")
        // The context is returned too: objects are usable only while their context lives.
        return (result, row.first ?? [], ada, cleanUp, a)
    }

    private func values(_ object: ManagedObject) throws -> [String] {
        [
            "\(try object.value(forKey: "salary") as? Int32 ?? -1)", try object.value(forKey: "lastName") as? String ?? "nil",
            try object.value(forKey: "nickName") as? String ?? "NULL",
        ]
    }

    @Test("the default policy refuses the save, lists the conflict and writes nothing")
    func errorPolicy() throws {
        let (result, row, ada, cleanUp, context) = try conflict(policy: .error)
        defer { cleanUp() }
        #expect(context.hasChanges)
        guard case .failure(.mergeConflicts(let conflicts)) = result else {
            Issue.record("expected a merge conflict, got \(result)")
            return
        }
        #expect(conflicts.count == 1)
        #expect(conflicts.first?.objectID == ada.objectID)
        #expect(conflicts.first?.snapshotVersion == 1)
        #expect(conflicts.first?.storeVersion == 2)
        #expect(row == ["200", "Byron", "NULL", "2"])
        #expect(ada.isUpdated)
        #expect(try values(ada) == ["300", "Lovelace", "Countess"])
    }

    @Test("the conflict is seen across coordinators (two connections to the file) too")
    func errorAcrossCoordinators() throws {
        let (result, row, _, cleanUp, _) = try conflict(policy: .error, secondCoordinator: true)
        defer { cleanUp() }
        guard case .failure(.mergeConflicts) = result else {
            Issue.record("expected a merge conflict, got \(result)")
            return
        }
        #expect(row == ["200", "Byron", "NULL", "2"])
    }

    @Test("mergeByPropertyStoreTrump: the store's changed properties win, the context's others are saved")
    func storeTrump() throws {
        let (result, row, ada, cleanUp, context) = try conflict(policy: .mergeByPropertyStoreTrump)
        defer { cleanUp() }
        #expect(throws: Never.self) { try result.get() }
        #expect(!context.hasChanges)
        #expect(row == ["200", "Byron", "Countess", "3"])
        #expect(try values(ada) == ["200", "Byron", "Countess"])
        #expect(!ada.hasChanges)
    }

    @Test("mergeByPropertyObjectTrump: the context's changed properties win, the store's others are kept")
    func objectTrump() throws {
        let (result, row, ada, cleanUp, context) = try conflict(policy: .mergeByPropertyObjectTrump)
        defer { cleanUp() }
        #expect(throws: Never.self) { try result.get() }
        #expect(!context.hasChanges)
        #expect(row == ["300", "Byron", "Countess", "3"])
        #expect(try values(ada) == ["300", "Byron", "Countess"])
    }

    @Test("overwrite: the context's whole object replaces the store's")
    func overwrite() throws {
        let (result, row, ada, cleanUp, context) = try conflict(policy: .overwrite)
        defer { cleanUp() }
        #expect(throws: Never.self) { try result.get() }
        #expect(!context.hasChanges)
        #expect(row == ["300", "Lovelace", "Countess", "3"])
        #expect(try values(ada) == ["300", "Lovelace", "Countess"])
    }

    @Test("rollback: the context's changes are dropped and the object takes the store's values")
    func rollback() throws {
        let (result, row, ada, cleanUp, context) = try conflict(policy: .rollback)
        defer { cleanUp() }
        #expect(throws: Never.self) { try result.get() }
        #expect(!context.hasChanges)
        #expect(row == ["200", "Byron", "NULL", "2"])
        #expect(try values(ada) == ["200", "Byron", "NULL"])
        #expect(!ada.hasChanges)
    }

    /// A store file holding Ada (saved by context `a`), and a second context `b` on it.
    private func savedAda() throws -> (
        url: URL, cleanUp: () -> Void, a: ManagedObjectContext, ada: ManagedObject, b: ManagedObjectContext
    ) {
        let (coordinator, url, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        let a = ManagedObjectContext(coordinator: coordinator)
        let ada = try ContextTestSupport.insert(a, "Employee", ["firstName": "Ada", "lastName": "L"])
        try a.save()
        return (url, cleanUp, a, ada, ManagedObjectContext(coordinator: coordinator))
    }

    @Test("changing an object another context deleted is a conflict with store version 0")
    func deletedElsewhere() throws {
        let (url, cleanUp, a, ada, b) = try savedAda()
        defer { cleanUp() }
        try b.delete(try b.existingObject(with: ada.objectID))
        try b.save()
        try ada.setValue("Changed", forKey: "firstName")
        do {
            try a.save()
            Issue.record("expected a conflict")
        } catch {
            guard case .mergeConflicts(let conflicts) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(conflicts.map(\.storeVersion) == [0])
        }
        #expect(try ContextTestSupport.rows(file: url, "SELECT COUNT(*) FROM ZEMPLOYEE") == [["0"]])
        // Deleting it again is not a conflict.
        a.rollback()
        try a.delete(ada)
        try a.save()
    }

    @Test("deleting an object another context changed: refused under the default policy with nothing written, done under the others")
    func deleteAfterChangeElsewhere() throws {
        let (url, cleanUp, a, ada, b) = try savedAda()
        defer { cleanUp() }
        try b.existingObject(with: ada.objectID).setValue("Changed", forKey: "firstName")
        try b.save()
        // The same save inserts too: the refused save must not leave the insert behind.
        try a.delete(ada)
        try ContextTestSupport.insert(a, "Employee", ["firstName": "Grace", "lastName": "H"])
        let query = "SELECT Z_PK, ZFIRSTNAME, Z_OPT FROM ZEMPLOYEE ORDER BY Z_PK"
        do {
            try a.save()
            Issue.record("expected a conflict")
        } catch {
            guard case .mergeConflicts(let conflicts) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(conflicts.map(\.snapshotVersion) == [1] && conflicts.map(\.storeVersion) == [2])
        }
        #expect(try ContextTestSupport.rows(file: url, query) == [["1", "Changed", "2"]])
        a.mergePolicy = .mergeByPropertyObjectTrump
        try a.save()
        #expect(try ContextTestSupport.rows(file: url, query) == [["2", "Grace", "1"]])
    }

    @Test("a to-many change bumps Z_OPT, so concurrent relationship edits conflict too")
    func relationshipConflict() throws {
        let (coordinator, url, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        let setup = ManagedObjectContext(coordinator: coordinator)
        let department = try ContextTestSupport.insert(setup, "Department", ["name": "R"])
        try setup.save()
        let a = ManagedObjectContext(coordinator: coordinator)
        let b = ManagedObjectContext(coordinator: coordinator)
        let inA = try a.existingObject(with: department.objectID)
        let inB = try b.existingObject(with: department.objectID)
        try ContextTestSupport.insert(b, "Employee", ["firstName": "B", "lastName": "B", "department": inB])
        try b.save()
        #expect(try ContextTestSupport.rows(file: url, "SELECT Z_OPT FROM ZDEPARTMENT") == [["2"]])
        try ContextTestSupport.insert(a, "Employee", ["firstName": "A", "lastName": "A", "department": inA])
        #expect(throws: ContextError.self) { try a.save() }
        a.mergePolicy = .mergeByPropertyObjectTrump
        try a.save()
        #expect(
            try ContextTestSupport.rows(file: url, "SELECT ZFIRSTNAME, ZDEPARTMENT FROM ZEMPLOYEE ORDER BY Z_PK") == [
                ["B", "1"], ["A", "1"],
            ])
        #expect(try ContextTestSupport.rows(file: url, "SELECT Z_OPT FROM ZDEPARTMENT") == [["3"]])
    }

    @Test("mergeChanges brings another context's saved updates, inserts and deletes in")
    func mergingASave() throws {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        let a = ManagedObjectContext(coordinator: coordinator)
        let department = try ContextTestSupport.insert(a, "Department", ["name": "R"])
        let ada = try ContextTestSupport.insert(a, "Employee", ["firstName": "Ada", "lastName": "L", "department": department])
        let alan = try ContextTestSupport.insert(a, "Employee", ["firstName": "Alan", "lastName": "T", "department": department])
        try a.save()
        #expect(try department.objects(forKey: "employees").count == 2)
        try ada.setValue("Countess", forKey: "nickName")  // unsaved change in A

        let b = ManagedObjectContext(coordinator: coordinator)
        let adaB = try b.existingObject(with: ada.objectID)
        try adaB.setValue(500, forKey: "salary")
        try b.delete(try b.existingObject(with: alan.objectID))
        let grace = try ContextTestSupport.insert(
            b, "Employee",
            [
                "firstName": "Grace", "lastName": "H", "department": try b.existingObject(with: department.objectID),
            ])
        let changes = try b.save()
        #expect(changes.updated.contains(ada.objectID) && changes.deleted == [alan.objectID])
        #expect(changes.inserted == [grace.objectID])

        a.mergeChanges(changes)
        #expect(try ada.value(forKey: "salary") as? Int32 == 500)
        #expect(try ada.value(forKey: "nickName") as? String == "Countess")
        #expect(a.registeredObject(for: alan.objectID) == nil)
        let names = try department.objects(forKey: "employees").map { try $0.value(forKey: "firstName") as? String }
        #expect(Set(names) == ["Ada", "Grace"])
        try a.save()  // Ada's snapshot is the store's current version: no conflict
    }
}
