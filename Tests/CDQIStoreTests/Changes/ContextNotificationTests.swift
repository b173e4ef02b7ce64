import CDQIModel
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// Item 1 of issue 17: the context's notifications (names, user-info keys, timing, coalescing).
@Suite("Changes: context notifications")
struct ContextNotificationTests {
    private let names = [
        ManagedObjectContext.didChangeObjectsNotification, ManagedObjectContext.willSaveObjectsNotification,
        ManagedObjectContext.didSaveObjectsNotification, ManagedObjectContext.didMergeChangesObjectIDsNotification,
    ]
    private static let didChange = "NSManagedObjectContextObjectsDidChangeNotification"
    private static let willSave = "NSManagedObjectContextWillSaveNotification"
    private static let didSave = "NSManagedObjectContextDidSaveNotification"
    private static let didMerge = "NSManagedObjectContextDidMergeChangesObjectIDsNotification"

    private func objects(_ info: [AnyHashable: Any], _ key: String) -> Set<ManagedObject> {
        info[key] as? Set<ManagedObject> ?? []
    }

    @Test("Core Data's names and key strings")
    func namesAndKeys() {
        #expect(ManagedObjectContext.didChangeObjectsNotification.rawValue == Self.didChange)
        #expect(ManagedObjectContext.willSaveObjectsNotification.rawValue == Self.willSave)
        #expect(ManagedObjectContext.didSaveObjectsNotification.rawValue == Self.didSave)
        #expect(ManagedObjectContext.didSaveObjectIDsNotification.rawValue == "NSManagedObjectContextDidSaveObjectIDsNotification")
        typealias Key = ManagedObjectContext.NotificationKey
        #expect(
            [Key.insertedObjects, .updatedObjects, .deletedObjects, .refreshedObjects, .invalidatedObjects, .invalidatedAllObjects].map(\.rawValue)
                == ["inserted", "updated", "deleted", "refreshed", "invalidated", "invalidatedAll"])
        #expect(
            [Key.insertedObjectIDs, .updatedObjectIDs, .deletedObjectIDs, .refreshedObjectIDs, .invalidatedObjectIDs].map(\.rawValue)
                == ["inserted_objectIDs", "updated_objectIDs", "deleted_objectIDs", "refreshed_objectIDs", "invalidated_objectIDs"])
    }

    @Test("an insert is posted at processPendingChanges, not before; a second processing posts nothing")
    func insertPostedAtProcessing() throws {
        let context = ManagedObjectContext(coordinator: try ChangeTestSupport.coordinator())
        let log = NotificationLog(names, object: context)
        let a = try ChangeTestSupport.item("a", "A", 1, in: context)
        #expect(log.names.isEmpty)
        context.processPendingChanges()
        #expect(log.names == [Self.didChange])
        #expect(objects(log.infos[0], "inserted") == [a])
        #expect(log.infos[0]["updated"] == nil)
        context.processPendingChanges()
        #expect(log.names == [Self.didChange])
    }

    @Test("save: objects-did-change for the last edits, then will-save, then did-save with the objects and SaveChanges")
    func saveSequence() throws {
        let context = ManagedObjectContext(coordinator: try ChangeTestSupport.coordinator())
        let a = try ChangeTestSupport.item("a", "A", 1, in: context)
        let b = try ChangeTestSupport.item("b", "A", 2, in: context)
        try context.save()
        let log = NotificationLog(names, object: context)
        try a.setValue("a2", forKey: "name")
        try context.delete(b)
        let c = try ChangeTestSupport.item("c", "B", 3, in: context)
        let changes = try context.save()
        #expect(log.names == [Self.didChange, Self.willSave, Self.didSave])
        let didChange = log.infos[0]
        #expect(objects(didChange, "inserted") == [c])
        #expect(objects(didChange, "updated") == [a])
        #expect(objects(didChange, "deleted") == [b])
        #expect(log.infos[1].isEmpty)
        let didSave = log.infos[2]
        #expect(objects(didSave, "inserted") == [c])
        #expect(objects(didSave, "updated") == [a])
        #expect(objects(didSave, "deleted") == [b])
        let saved = try #require(didSave["CDQISaveChanges"] as? SaveChanges)
        #expect(saved == changes)
        #expect(saved.inserted == [c.objectID])
        #expect(!c.objectID.isTemporaryID)
    }

    @Test("with no change observer, a save still posts fetched objects whose values changed, and not those set back")
    func saveWithoutChangeObservers() throws {
        let context = ManagedObjectContext(coordinator: try ChangeTestSupport.coordinator())
        let a = try ChangeTestSupport.item("a", "A", 1, in: context)
        let b = try ChangeTestSupport.item("b", "A", 2, in: context)
        let c = try ChangeTestSupport.item("c", "B", 3, in: context)
        try context.save()
        #expect(context.changeObservers.isEmpty)
        let log = NotificationLog(names, object: context)
        try a.setValue(Int64(7), forKey: "rank")
        try b.setValue("b2", forKey: "name")
        try b.setValue("b", forKey: "name")
        try c.setValue("B", forKey: "group")
        let d = try ChangeTestSupport.item("d", nil, 4, in: context)
        try context.save()
        #expect(log.names == [Self.didChange, Self.willSave, Self.didSave])
        #expect(objects(log.infos[0], "updated") == [a])
        #expect(objects(log.infos[0], "inserted") == [d])
        #expect(objects(log.infos[2], "updated") == [a])
        #expect(objects(log.infos[2], "inserted") == [d])
    }

    @Test("did-save lists every object the save wrote, also those an earlier processing already posted")
    func didSaveAfterEarlierProcessing() throws {
        let context = ManagedObjectContext(coordinator: try ChangeTestSupport.coordinator())
        let a = try ChangeTestSupport.item("a", "A", 1, in: context)
        let b = try ChangeTestSupport.item("b", "A", 2, in: context)
        try context.save()
        let log = NotificationLog(names, object: context)
        let x = try ChangeTestSupport.item("x", "A", 3, in: context)
        try a.setValue(Int64(8), forKey: "rank")
        context.processPendingChanges()
        let y = try ChangeTestSupport.item("y", "B", 4, in: context)
        try b.setValue(Int64(9), forKey: "rank")
        try context.save()
        #expect(log.names == [Self.didChange, Self.didChange, Self.willSave, Self.didSave])
        #expect(objects(log.infos[0], "inserted") == [x])
        #expect(objects(log.infos[0], "updated") == [a])
        #expect(objects(log.infos[1], "inserted") == [y])
        #expect(objects(log.infos[1], "updated") == [b])
        #expect(objects(log.infos[3], "inserted") == [x, y])
        #expect(objects(log.infos[3], "updated") == [a, b])
    }

    @Test("a save with nothing to write posts nothing")
    func emptySave() throws {
        let context = ManagedObjectContext(coordinator: try ChangeTestSupport.coordinator())
        let log = NotificationLog(names, object: context)
        try context.save()
        #expect(log.names.isEmpty)
    }

    @Test("coalescing: inserted then deleted before processing is in no set; edited twice is updated once")
    func coalescing() throws {
        let context = ManagedObjectContext(coordinator: try ChangeTestSupport.coordinator())
        let a = try ChangeTestSupport.item("a", "A", 1, in: context)
        try context.save()
        let log = NotificationLog(names, object: context)
        let x = try ChangeTestSupport.item("x", "A", 9, in: context)
        try context.delete(x)
        try a.setValue(Int64(2), forKey: "rank")
        try a.setValue(Int64(3), forKey: "rank")
        context.processPendingChanges()
        #expect(log.names == [Self.didChange])
        #expect(log.infos[0]["inserted"] == nil)
        #expect(log.infos[0]["deleted"] == nil)
        #expect(objects(log.infos[0], "updated") == [a])
    }

    @Test("changed keys are those of the current event only")
    func changedKeysPerEvent() throws {
        let context = ManagedObjectContext(coordinator: try ChangeTestSupport.coordinator())
        let a = try ChangeTestSupport.item("a", "A", 1, in: context)
        try context.save()
        final class Keys: ContextChangeObserver {
            var keys: [Set<String>] = []
            let target: ManagedObject
            init(_ target: ManagedObject) { self.target = target }
            func context(_ context: ManagedObjectContext, didChange change: ObjectsDidChange) {
                keys.append(change.changedKeys(of: target))
            }
            func context(_ context: ManagedObjectContext, didSave changes: SaveChanges) {}
        }
        let observer = Keys(a)
        context.addChangeObserver(observer)
        try a.setValue("n", forKey: "name")
        context.processPendingChanges()
        try a.setValue(Int64(5), forKey: "rank")
        context.processPendingChanges()
        // Set back to the value of the last processing: no change this event.
        try a.setValue(Int64(5), forKey: "rank")
        context.processPendingChanges()
        #expect(observer.keys == [["name"], ["rank"]])
    }

    @Test("a fetch processes pending changes first; a fetch that only registers objects posts nothing")
    func fetchProcessesFirst() throws {
        let coordinator = try ChangeTestSupport.coordinator()
        let writer = ManagedObjectContext(coordinator: coordinator)
        try ChangeTestSupport.item("a", "A", 1, in: writer)
        try writer.save()
        let context = ManagedObjectContext(coordinator: coordinator)
        let log = NotificationLog(names, object: context)
        let fetched = try context.fetch(FetchRequest(entityName: "Item"))
        #expect(fetched.count == 1)
        #expect(log.names.isEmpty)
        try fetched[0].setValue(Int64(4), forKey: "rank")
        _ = try context.count(for: FetchRequest(entityName: "Other"))
        #expect(log.names == [Self.didChange])
        #expect(objects(log.infos[0], "updated") == [fetched[0]])
    }

    @Test("performAndWait processes pending changes at its end")
    func performProcesses() throws {
        let context = ManagedObjectContext(coordinator: try ChangeTestSupport.coordinator())
        let log = NotificationLog(names, object: context)
        try context.performAndWait {
            try ChangeTestSupport.item("a", "A", 1, in: context)
            #expect(log.names.isEmpty)
        }
        #expect(log.names == [Self.didChange])
    }

    @Test("reset posts invalidatedAll")
    func resetInvalidatesAll() throws {
        let context = ManagedObjectContext(coordinator: try ChangeTestSupport.coordinator())
        let log = NotificationLog(names, object: context)
        context.reset()
        #expect(log.names == [Self.didChange])
        #expect(log.infos[0]["invalidatedAll"] as? Bool == true)
    }

    @Test("a merge posts refreshed and invalidated objects (marked) and the IDs variant")
    func mergeNotifications() throws {
        let coordinator = try ChangeTestSupport.coordinator()
        let writer = ManagedObjectContext(coordinator: coordinator)
        let a = try ChangeTestSupport.item("a", "A", 1, in: writer)
        let b = try ChangeTestSupport.item("b", "A", 2, in: writer)
        try writer.save()
        let follower = ManagedObjectContext(coordinator: coordinator)
        follower.automaticallyMergesChangesFromParent = true
        let held = try follower.fetch(ChangeTestSupport.request())
        #expect(held.map(ChangeTestSupport.name) == ["a", "b"])
        let log = NotificationLog(names, object: follower)
        try a.setValue(Int64(7), forKey: "rank")
        try writer.delete(b)
        let c = try ChangeTestSupport.item("c", "B", 1, in: writer)
        try writer.save()
        follower.processPendingMerges()
        #expect(log.names == [Self.didChange, Self.didMerge])
        #expect(objects(log.infos[0], "refreshed") == [held[0]])
        #expect(objects(log.infos[0], "invalidated") == [held[1]])
        #expect(log.infos[0]["NSObjectsChangedByMergeChangesKey"] as? Bool == true)
        #expect(log.infos[1]["inserted_objectIDs"] as? Set<ManagedObjectID> == [c.objectID])
        #expect(log.infos[1]["refreshed_objectIDs"] as? Set<ManagedObjectID> == [a.objectID])
        #expect(log.infos[1]["invalidated_objectIDs"] as? Set<ManagedObjectID> == [b.objectID])
    }

    @Test("context.changes and coordinator.saves deliver the same events as Sendable values")
    func asyncSequences() async throws {
        let coordinator = try ChangeTestSupport.coordinator()
        let context = ManagedObjectContext(coordinator: coordinator)
        let changes = context.changes
        let saves = coordinator.saves
        let a = try ChangeTestSupport.item("a", "A", 1, in: context)
        let temporary = a.objectID
        let saved = try context.save()
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next() == .objectsDidChange(ObjectIDChanges(inserted: [temporary])))
        #expect(await iterator.next() == .willSave)
        #expect(await iterator.next() == .didSave(saved))
        var saveIterator = saves.makeAsyncIterator()
        #expect(await saveIterator.next() == StoreSave(changes: saved, origin: .context))
    }
}
