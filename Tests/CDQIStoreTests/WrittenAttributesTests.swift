import CDQIModel
@testable import CDQIStore
import Foundation
import Testing

/// Change detection compares only the attribute slots written since the snapshot: every path that
/// puts values into an object must leave a later save writing exactly what changed.
@Suite("Written attribute slots")
struct WrittenAttributesTests {
    /// The stored values of the saved employee named `first`, read by a fresh context.
    private func stored(_ coordinator: PersistentStoreCoordinator, _ first: String) throws -> [String] {
        try ContextTestSupport.rows(
            coordinator, "SELECT ZNICKNAME, ZSALARY, Z_OPT FROM ZEMPLOYEE WHERE ZFIRSTNAME = '\(first)'").first ?? []
    }

    @Test("a change kept through refresh(mergeChanges: true) is written by the next save")
    func changeKeptThroughRefresh() throws {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let grace = try ContextTestSupport.insert(context, "Employee", ["firstName": "Grace", "lastName": "Hopper", "salary": 10])
        try context.save()
        try grace.setValue("Amazing", forKey: "nickName")
        // The refresh reads the row again (a new snapshot) and puts the unsaved nickname back on top.
        try context.refresh(grace, mergeChanges: true)
        try context.save()
        #expect(try stored(coordinator, "Grace") == ["Amazing", "10", "2"])
    }

    @Test("a value set and set back is no update; a later change is")
    func setBack() throws {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let ada = try ContextTestSupport.insert(context, "Employee", ["firstName": "Ada", "lastName": "Lovelace", "salary": 100])
        try context.save()
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
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        let setup = ManagedObjectContext(coordinator: coordinator)
        let saved = try ContextTestSupport.insert(setup, "Employee", ["firstName": "Ada", "lastName": "Lovelace", "salary": 100])
        try setup.save()
        let a = ManagedObjectContext(coordinator: coordinator)
        a.mergePolicy = .mergeByPropertyStoreTrump
        let ada = try a.existingObject(with: saved.objectID)
        let b = ManagedObjectContext(coordinator: coordinator)
        try b.existingObject(with: saved.objectID).setValue(200, forKey: "salary")
        try b.save()
        try ada.setValue(300, forKey: "salary")
        try a.save()   // the store's salary wins: 200, version 3
        #expect(try stored(coordinator, "Ada") == ["NULL", "200", "3"])
        try ada.setValue("Countess", forKey: "nickName")
        try a.save()
        #expect(try stored(coordinator, "Ada") == ["Countess", "200", "4"])
    }

    @Test("an entity with more than 32 attributes: changes past the 32nd are written")
    func wideEntity() throws {
        var wide = EntityDescription(name: "Wide")
        wide.attributes = (0..<40).map { AttributeDescription(name: "a\($0)", type: .integer64, isOptional: true) }
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let coordinator = try PersistentStoreCoordinator(
            model: ManagedObjectModel(entities: [wide]), url: folder.appendingPathComponent("Wide.sqlite"))
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
}
