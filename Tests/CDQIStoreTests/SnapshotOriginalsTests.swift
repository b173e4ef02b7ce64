import CDQIModel
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// An object's snapshot keeps only the values of the slots written since it was taken (the rest are the
/// current ones): every path that puts values into an object must leave a later save writing exactly
/// what changed, and the committed values reading what the store holds.
@Suite("Snapshot originals")
struct SnapshotOriginalsTests {
    /// The stored values of the saved employee named `first`, read by a fresh context.
    private func stored(_ coordinator: PersistentStoreCoordinator, _ first: String) throws -> [String] {
        try ContextTestSupport.rows(
            coordinator, "SELECT ZNICKNAME, ZSALARY, Z_OPT FROM ZEMPLOYEE WHERE ZFIRSTNAME = '\(first)'"
        ).first ?? []
    }

    /// A new Company store file with one saved employee, the context that saved it (objects live only as
    /// long as their context) and the folder's clean-up.
    private func savedEmployee(
        _ first: String, _ last: String, salary: Int
    ) throws
        -> (coordinator: PersistentStoreCoordinator, context: ManagedObjectContext, employee: ManagedObject, cleanUp: () -> Void)
    {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        let context = ManagedObjectContext(coordinator: coordinator)
        let employee = try ContextTestSupport.insert(
            context, "Employee", ["firstName": first, "lastName": last, "salary": salary])
        try context.save()
        return (coordinator, context, employee, cleanUp)
    }

    /// A coordinator on a new store file for a model of `entities`, and the folder's clean-up.
    private func coordinator(_ entities: [EntityDescription]) throws -> (PersistentStoreCoordinator, () -> Void) {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        let coordinator = try PersistentStoreCoordinator(
            model: ManagedObjectModel(entities: entities), url: folder.appendingPathComponent("Originals.sqlite"))
        return (coordinator, cleanUp)
    }

    @Test("a change kept through refresh(mergeChanges: true) is written by the next save")
    func changeKeptThroughRefresh() throws {
        let (coordinator, context, grace, cleanUp) = try savedEmployee("Grace", "Hopper", salary: 10)
        defer { cleanUp() }
        try grace.setValue("Amazing", forKey: "nickName")
        // The refresh reads the row again (a new snapshot) and puts the unsaved nickname back on top.
        try context.refresh(grace, mergeChanges: true)
        try context.save()
        #expect(try stored(coordinator, "Grace") == ["Amazing", "10", "2"])
    }

    @Test("a value set and set back is no update; a later change is")
    func setBack() throws {
        let (coordinator, context, ada, cleanUp) = try savedEmployee("Ada", "Lovelace", salary: 100)
        defer { cleanUp() }
        try ada.setValue(200, forKey: "salary")
        try ada.setValue(100, forKey: "salary")
        #expect(!ada.isUpdated)
        #expect(try context.save().updated.isEmpty)
        try ada.setValue("Countess", forKey: "nickName")
        try context.save()
        #expect(try stored(coordinator, "Ada") == ["Countess", "100", "2"])
    }

    @Test("after a merge-policy save, the next change to another attribute is written")
    func changeAfterMerge() throws {
        let (coordinator, _, saved, cleanUp) = try savedEmployee("Ada", "Lovelace", salary: 100)
        defer { cleanUp() }
        let a = ManagedObjectContext(coordinator: coordinator)
        a.mergePolicy = .mergeByPropertyStoreTrump
        let ada = try a.existingObject(with: saved.objectID)
        let b = ManagedObjectContext(coordinator: coordinator)
        try b.existingObject(with: saved.objectID).setValue(200, forKey: "salary")
        try b.save()
        try ada.setValue(300, forKey: "salary")
        try a.save()  // the store's salary wins: 200, version 3
        #expect(try stored(coordinator, "Ada") == ["NULL", "200", "3"])
        try ada.setValue("Countess", forKey: "nickName")
        try a.save()
        #expect(try stored(coordinator, "Ada") == ["Countess", "200", "4"])
    }

    @Test("an entity with more than 32 attributes: changes past the 32nd are written")
    func wideEntity() throws {
        var wide = EntityDescription(name: "Wide")
        wide.attributes = (0..<40).map { AttributeDescription(name: "a\($0)", type: .integer64, isOptional: true) }
        let (coordinator, cleanUp) = try coordinator([wide])
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let object = try context.insertNewObject(forEntityName: "Wide")
        try object.setValue(1, forKey: "a3")
        try context.save()
        try object.setValue(35, forKey: "a35")
        try context.save()
        try object.setValue(4, forKey: "a3")
        try object.setValue(39, forKey: "a39")
        try context.save()
        let row = try ContextTestSupport.rows(coordinator, "SELECT ZA3, ZA35, ZA39, Z_OPT FROM ZWIDE").first
        #expect(row == ["4", "35", "39", "3"])
    }

    /// A saved department with one saved employee in it, and a second saved department.
    private func savedDepartments() throws -> (
        coordinator: PersistentStoreCoordinator, context: ManagedObjectContext, ada: ManagedObject,
        sales: ManagedObject, research: ManagedObject, cleanUp: () -> Void
    ) {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        let context = ManagedObjectContext(coordinator: coordinator)
        let sales = try ContextTestSupport.insert(context, "Department", ["name": "Sales"])
        let research = try ContextTestSupport.insert(context, "Department", ["name": "Research"])
        let ada = try ContextTestSupport.insert(
            context, "Employee", ["firstName": "Ada", "lastName": "Lovelace", "salary": 100, "department": sales])
        try context.save()
        return (coordinator, context, ada, sales, research, cleanUp)
    }

    /// The name of the department the stored employee named `first` is in, and the row's version.
    private func storedDepartment(_ coordinator: PersistentStoreCoordinator, _ first: String) throws -> [String] {
        try ContextTestSupport.rows(
            coordinator,
            "SELECT d.ZNAME, e.Z_OPT FROM ZEMPLOYEE e LEFT JOIN ZDEPARTMENT d ON d.Z_PK = e.ZDEPARTMENT"
                + " WHERE e.ZFIRSTNAME = '\(first)'"
        ).first ?? []
    }

    @Test("a to-one set and set back is no update; the committed value stays the stored one meanwhile")
    func toOneSetBack() throws {
        let (coordinator, context, ada, sales, research, cleanUp) = try savedDepartments()
        defer { cleanUp() }
        try ada.setValue(research, forKey: "department")
        #expect(ada.isUpdated)
        #expect(ada.committedValues["department"] as? ManagedObject === sales)
        #expect(ada.changedValues()["department"] as? ManagedObject === research)
        try ada.setValue(nil, forKey: "department")
        #expect(ada.committedValues["department"] as? ManagedObject === sales)
        try ada.setValue(sales, forKey: "department")
        #expect(!ada.isUpdated)
        #expect(ada.changedValues().isEmpty)
        #expect(try context.save().updated.isEmpty)
        #expect(try storedDepartment(coordinator, "Ada") == ["Sales", "1"])
    }

    @Test("a to-one change is written, then becomes the committed value")
    func toOneChangeSaved() throws {
        let (coordinator, context, ada, _, research, cleanUp) = try savedDepartments()
        defer { cleanUp() }
        try ada.setValue(research, forKey: "department")
        try ada.setValue(100, forKey: "salary")  // the value it has: no change
        try context.save()
        #expect(try storedDepartment(coordinator, "Ada") == ["Research", "2"])
        #expect(!ada.hasChanges)
        #expect(ada.committedValues["department"] as? ManagedObject === research)
        #expect(ada.committedValues["salary"] as? Int32 == 100)
    }

    @Test("a to-one change kept through refresh(mergeChanges: true) is written by the next save")
    func toOneKeptThroughRefresh() throws {
        let (coordinator, context, ada, sales, research, cleanUp) = try savedDepartments()
        defer { cleanUp() }
        try ada.setValue(research, forKey: "department")
        try context.refresh(ada, mergeChanges: true)
        #expect(ada.committedValues["department"] as? ManagedObject === sales)
        #expect(try ada.value(forKey: "department") as? ManagedObject === research)
        try context.save()
        #expect(try storedDepartment(coordinator, "Ada") == ["Research", "2"])
    }

    @Test("rollback puts back the stored values of every slot written, however often")
    func rollbackAfterRepeatedWrites() throws {
        let (_, context, ada, sales, research, cleanUp) = try savedDepartments()
        defer { cleanUp() }
        try ada.setValue(200, forKey: "salary")
        try ada.setValue(300, forKey: "salary")
        try ada.setValue("Countess", forKey: "nickName")
        try ada.setValue(research, forKey: "department")
        context.rollback()
        #expect(try ada.value(forKey: "salary") as? Int32 == 100)
        #expect(try ada.value(forKey: "nickName") == nil)
        #expect(try ada.value(forKey: "department") as? ManagedObject === sales)
        #expect(!ada.hasChanges)
    }

    @Test("a write to a transient attribute is no update; a later stored change is")
    func transientWriteIsNoUpdate() throws {
        var entity = EntityDescription(name: "T")
        var transient = AttributeDescription(name: "t", type: .integer64, isOptional: true)
        transient.isTransient = true
        entity.attributes = [transient, AttributeDescription(name: "a", type: .integer64, isOptional: true)]
        let (coordinator, cleanUp) = try coordinator([entity])
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let object = try context.insertNewObject(forEntityName: "T")
        try object.setValue(1, forKey: "a")
        try context.save()
        try object.setValue(5, forKey: "t")
        #expect(!object.isUpdated)
        #expect(object.changedValues().isEmpty)
        #expect(try context.save().updated.isEmpty)
        try object.setValue(2, forKey: "a")
        #expect(object.isUpdated)
        #expect(object.committedValues["a"] as? Int64 == 1)
        try context.save()
        #expect(try ContextTestSupport.rows(coordinator, "SELECT ZA, Z_OPT FROM ZT") == [["2", "2"]])
    }

    @Test("slots written out of order, some twice, some back to their stored value: committed, changed and saved values")
    func manySlotsOutOfOrder() throws {
        var entity = EntityDescription(name: "W")
        entity.attributes = (0..<10).map { AttributeDescription(name: "a\($0)", type: .integer64, isOptional: true) }
        let (coordinator, cleanUp) = try coordinator([entity])
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let object = try context.insertNewObject(forEntityName: "W")
        for slot in 0..<10 { try object.setValue(slot, forKey: "a\(slot)") }
        try context.save()
        // a5 and a0 end where they started; a2 is written twice.
        for (slot, value) in [(5, 50), (2, 20), (7, 70), (2, 21), (0, 1), (9, 90), (5, 5), (1, 11), (0, 0)] {
            try object.setValue(value, forKey: "a\(slot)")
        }
        let committed = object.committedValues
        for slot in 0..<10 { #expect(committed["a\(slot)"] as? Int64 == Int64(slot)) }
        #expect(Set(object.changedValues().keys) == ["a1", "a2", "a7", "a9"])
        try context.save()
        #expect(
            try ContextTestSupport.rows(coordinator, "SELECT ZA0, ZA1, ZA2, ZA5, ZA7, ZA9, Z_OPT FROM ZW")
                == [["0", "11", "21", "5", "70", "90", "2"]])
    }

    @Test("a uniqueness constraint sees a changed key, and a key set back to its stored value")
    func uniquenessSeesCommittedValues() throws {
        var entity = EntityDescription(name: "U")
        entity.attributes = [
            AttributeDescription(name: "k", type: .integer64, isOptional: true),
            AttributeDescription(name: "x", type: .integer64, isOptional: true),
        ]
        entity.uniquenessConstraints = [UniquenessConstraint(properties: ["k"])]
        let (coordinator, cleanUp) = try coordinator([entity])
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let first = try context.insertNewObject(forEntityName: "U")
        try first.setValue(1, forKey: "k")
        let second = try context.insertNewObject(forEntityName: "U")
        try second.setValue(2, forKey: "k")
        try context.save()
        try second.setValue(1, forKey: "k")
        #expect(throws: ContextError.self) { try context.save() }
        try second.setValue(2, forKey: "k")
        try second.setValue(9, forKey: "x")
        try context.save()
        #expect(try ContextTestSupport.rows(coordinator, "SELECT ZK, ZX FROM ZU ORDER BY Z_PK") == [["1", "NULL"], ["2", "9"]])
    }

    @Test("a to-one a merge policy took from the store is the committed value, and changing it back is saved")
    func mergedToOneThenChangedBack() throws {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        let setup = ManagedObjectContext(coordinator: coordinator)
        let sales = try ContextTestSupport.insert(setup, "Department", ["name": "Sales"])
        let research = try ContextTestSupport.insert(setup, "Department", ["name": "Research"])
        let ada = try ContextTestSupport.insert(
            setup, "Employee", ["firstName": "Ada", "lastName": "L", "salary": 1, "department": sales])
        try setup.save()
        let a = ManagedObjectContext(coordinator: coordinator)
        a.mergePolicy = .mergeByPropertyStoreTrump
        let adaInA = try a.existingObject(with: ada.objectID)
        let b = ManagedObjectContext(coordinator: coordinator)
        try b.existingObject(with: ada.objectID).setValue(b.existingObject(with: research.objectID), forKey: "department")
        try b.save()
        try adaInA.setValue(7, forKey: "salary")
        try a.save()  // the store's department wins, a's salary is kept: version 3
        let query = "SELECT d.ZNAME, e.ZSALARY, e.Z_OPT FROM ZEMPLOYEE e LEFT JOIN ZDEPARTMENT d ON d.Z_PK = e.ZDEPARTMENT"
        #expect(try ContextTestSupport.rows(coordinator, query) == [["Research", "7", "3"]])
        let researchInA = try #require(try adaInA.value(forKey: "department") as? ManagedObject)
        #expect(researchInA.objectID == research.objectID)
        #expect(!adaInA.hasChanges)
        #expect(adaInA.committedValues["department"] as? ManagedObject === researchInA)
        try adaInA.setValue(a.existingObject(with: sales.objectID), forKey: "department")
        #expect(adaInA.isUpdated)
        try a.save()
        #expect(try ContextTestSupport.rows(coordinator, query) == [["Sales", "7", "4"]])
    }
}
