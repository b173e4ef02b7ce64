import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// Item 2 of issue 17: writes to the store file by another connection (another coordinator stands
/// for another process: it has its own writer), found through `PRAGMA data_version`.
@Suite("Changes: writes by other processes")
struct ExternalWriteTests {
    /// Two coordinators on one new store file: a, b (group A, ranks 1, 2) saved through the first.
    private func stores() throws -> (PersistentStoreCoordinator, PersistentStoreCoordinator, () -> Void) {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        let url = folder.appendingPathComponent("Items.sqlite")
        let first = try ChangeTestSupport.coordinator(url: url)
        let seed = ManagedObjectContext(coordinator: first)
        try ChangeTestSupport.item("a", "A", 1, in: seed)
        try ChangeTestSupport.item("b", "A", 2, in: seed)
        try seed.save()
        return (first, try ChangeTestSupport.coordinator(url: url), cleanUp)
    }

    @Test("refreshIfStoreChanged reports another connection's insert, update and delete, and merges them")
    func detectsForeignWrites() throws {
        let (coordinator, other, cleanUp) = try stores()
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let held = try context.fetch(ChangeTestSupport.request())
        #expect(held.map(ChangeTestSupport.name) == ["a", "b"])
        #expect(try context.refreshIfStoreChanged() == nil)  // tracking starts; nothing written since

        let log = NotificationLog([ManagedObjectContext.didSaveObjectIDsNotification], object: context)
        let foreign = ManagedObjectContext(coordinator: other)
        let rows = try foreign.fetch(ChangeTestSupport.request())
        try rows[0].setValue(Int64(10), forKey: "rank")
        try foreign.delete(rows[1])
        let c = try ChangeTestSupport.item("c", "B", 1, in: foreign)
        try foreign.save()

        let changes = try #require(try context.refreshIfStoreChanged())
        #expect(changes.inserted == [c.objectID])
        #expect(c.objectID.primaryKey == 3)
        #expect(changes.updated == [held[0].objectID])
        #expect(changes.deleted == [held[1].objectID])
        // Merged: a reads the new rank; b is out of the context.
        #expect(try held[0].value(forKey: "rank") as? Int64 == 10)
        #expect(context.registeredObject(for: held[1].objectID) == nil)
        #expect(log.names == ["NSManagedObjectContextDidSaveObjectIDsNotification"])
        #expect(log.infos.first?["inserted_objectIDs"] as? Set<ManagedObjectID> == [c.objectID])
        // Looked at: nothing new.
        #expect(try context.refreshIfStoreChanged() == nil)
    }

    @Test("this coordinator's own saves are not reported as foreign writes")
    func ownSavesAreNotForeign() throws {
        let (coordinator, _, cleanUp) = try stores()
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        _ = try context.fetch(ChangeTestSupport.request())
        #expect(try context.refreshIfStoreChanged() == nil)
        let sibling = ManagedObjectContext(coordinator: coordinator)
        try ChangeTestSupport.item("d", "A", 4, in: sibling)
        try sibling.save()
        #expect(try context.refreshIfStoreChanged() == nil)
    }

    @Test("a foreign insert committed before one of our saves is still told apart from it")
    func foreignInsertBeforeOwnSave() throws {
        let (coordinator, other, cleanUp) = try stores()
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        #expect(try context.refreshIfStoreChanged() == nil)
        let foreign = ManagedObjectContext(coordinator: other)
        let x = try ChangeTestSupport.item("x", "A", 5, in: foreign)  // gets key 3
        try foreign.save()
        let own = ManagedObjectContext(coordinator: coordinator)
        let y = try ChangeTestSupport.item("y", "A", 6, in: own)  // gets key 4
        try own.save()
        #expect(x.objectID.primaryKey == 3)
        #expect(y.objectID.primaryKey == 4)
        let changes = try #require(try context.refreshIfStoreChanged())
        #expect(changes.inserted == [x.objectID])
    }

    @Test("a following context picks foreign writes up at its next fetch; coordinator.saves yields them")
    func followingContextDetectsAtFetch() async throws {
        let (coordinator, other, cleanUp) = try stores()
        defer { cleanUp() }
        let follower = ManagedObjectContext(coordinator: coordinator)
        follower.automaticallyMergesChangesFromParent = true
        let saves = coordinator.saves
        let held = try follower.fetch(ChangeTestSupport.request())
        let foreign = ManagedObjectContext(coordinator: other)
        let rows = try foreign.fetch(ChangeTestSupport.request())
        try rows[1].setValue("b2", forKey: "name")
        let e = try ChangeTestSupport.item("e", "A", 3, in: foreign)
        try foreign.save()
        #expect(ChangeTestSupport.name(held[1]) == "b")
        let fetched = try follower.fetch(ChangeTestSupport.request())
        #expect(fetched.map(ChangeTestSupport.name) == ["a", "b2", "e"])
        #expect(ChangeTestSupport.name(held[1]) == "b2")
        var iterator = saves.makeAsyncIterator()
        let save = await iterator.next()
        #expect(save?.origin == .external)
        #expect(save?.changes.inserted == [e.objectID])
    }
}
