import CDQIPredicate
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// A row deleted elsewhere (a batch delete here or in another context, another context's save) while
/// the controller's context holds its object with unsaved changes: as Core Data's merge does, the
/// object is deleted here, and the controller reports it at once (the differential test's seed 12,
/// step 211, where the controller kept it and said nothing). Start: A:[a1(1), a2(2)] B:[b1(1)],
/// sectioned by group, sorted by group, rank, name, `rank >= 0`; the expected callbacks are worked
/// out by hand from the reference's §4.5 and §7 (S4, S5, S18).
@Suite("Changes: a row deleted elsewhere under unsaved changes")
struct MergedDeleteOfEditedObjectTests {
    typealias Fixture = FetchedResultsScenarioTests.Fixture

    static let start: [(String, String?, Int64)] = [("a1", "A", 1), ("a2", "A", 2), ("b1", "B", 1)]

    /// Edits `name`'s object here without saving, processes it (one update callback), and starts
    /// recording afresh.
    static func editUnsaved(_ f: Fixture, _ name: String, _ key: String, _ value: Any?) throws {
        try f.set(name, key, value)
        f.context.processPendingChanges()
        #expect(f.recorder.log.count == 3, "the edit is reported before the merge: \(f.recorder.log)")
        f.recorder.reset()
        f.before = ControllerRecorder.sections(of: f.controller)
    }

    static func deleteRequest(named name: String) throws -> BatchDeleteRequest {
        BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Item", predicate: try PredicateNode(format: "name == %@", name)))
    }

    /// After the delete: the object is a pending delete (fetches leave it out), undoing the edit
    /// brings nothing back, and the save deletes nothing and is no conflict.
    static func expectDeletedHere(_ f: Fixture, _ name: String, remaining: Int) throws {
        let object = f[name]
        #expect(object.isDeleted)
        #expect(object.hasChanges)
        #expect(f.controller.indexPath(forObject: object) == nil)
        f.recorder.reset()
        f.before = ControllerRecorder.sections(of: f.controller)
        // Undoing the edit changes nothing: the object stays deleted (the seed-12 divergence).
        try object.setValue(name, forKey: "name")
        f.context.processPendingChanges()
        #expect(try f.check() == [])
        try f.context.save()
        #expect(try f.check() == [])
        #expect(f.context.registeredObject(for: object.objectID) == nil)
        #expect(try f.context.count(for: FetchRequest(entityName: "Item")) == remaining)
    }

    @Test("a batch delete in the controller's context of an object with an unsaved edit: deleted and reported")
    func batchHere() throws {
        let f = try Fixture(Self.start)
        try Self.editUnsaved(f, "a1", "name", "a1 edited")
        _ = try f.context.execute(Self.deleteRequest(named: "a1"))
        #expect(try f.check() == ["W", "O(del,[0,0])", "D"])
        try Self.expectDeletedHere(f, "a1", remaining: 2)
    }

    @Test("a batch delete in another context, merged automatically: the section goes too")
    func batchElsewhere() throws {
        let coordinator = try ChangeTestSupport.coordinator()
        let f = try Fixture(Self.start, coordinator: coordinator)
        f.context.automaticallyMergesChangesFromParent = true
        let other = ManagedObjectContext(coordinator: coordinator)
        try Self.editUnsaved(f, "b1", "name", "b1 edited")
        _ = try other.execute(Self.deleteRequest(named: "b1"))
        f.context.processPendingMerges()
        #expect(try f.check() == ["W", "O(del,[1,0])", "S(del,1)", "D"])
        try Self.expectDeletedHere(f, "b1", remaining: 2)
    }

    @Test("an ordinary save of another context deleting an object whose sort key was edited here")
    func saveElsewhere() throws {
        let coordinator = try ChangeTestSupport.coordinator()
        let f = try Fixture(Self.start, coordinator: coordinator)
        f.context.automaticallyMergesChangesFromParent = true
        // a1's rank 1 → 5 here: a move to [0,1], below a2 (rank 2).
        try Self.editUnsaved(f, "a1", "rank", Int64(5))
        #expect(f.controller.indexPath(forObject: f["a1"]) == [0, 1])
        let other = ManagedObjectContext(coordinator: coordinator)
        try other.delete(try other.existingObject(with: f["a1"].objectID))
        try other.save()
        f.context.processPendingMerges()
        #expect(try f.check() == ["W", "O(del,[0,1])", "D"])
        // Undoing the edit: rank back to 1.
        try f["a1"].setValue(Int64(1), forKey: "rank")
        try Self.expectDeletedHere(f, "a1", remaining: 2)
    }

    @Test("deleted IDs merged through mergeChanges(fromRemoteContextSave:into:) (S18 under an unsaved edit)")
    func remoteMerge() throws {
        let coordinator = try ChangeTestSupport.coordinator()
        let f = try Fixture(Self.start, coordinator: coordinator)
        try Self.editUnsaved(f, "a2", "name", "a2 edited")
        let other = ManagedObjectContext(coordinator: coordinator)
        let result = try other.execute(
            {
                var request = try Self.deleteRequest(named: "a2")
                request.resultType = .objectIDs
                return request
            }())
        guard case .objectIDs(let ids) = result else {
            Issue.record("expected object IDs, got \(result)")
            return
        }
        #expect(ids == [f["a2"].objectID])
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: SaveChanges(deleted: Set(ids)), into: [f.context])
        #expect(try f.check() == ["W", "O(del,[0,1])", "D"])
        try Self.expectDeletedHere(f, "a2", remaining: 2)
    }

    @Test("an object without unsaved changes is still invalidated, not deleted (unchanged behaviour)")
    func unchangedObjectIsInvalidated() throws {
        let f = try Fixture(Self.start)
        let a1 = f["a1"]
        _ = try f.context.execute(Self.deleteRequest(named: "a1"))
        #expect(try f.check() == ["W", "O(del,[0,0])", "D"])
        #expect(!a1.hasChanges)
        #expect(f.context.registeredObject(for: a1.objectID) == nil)
        #expect(throws: ManagedObjectError.self) { try a1.value(forKey: "name") }
    }

    // MARK: Updated elsewhere, then the unsaved change undone

    @Test("a row updated by another context's save under an unsaved edit: once the edit is undone, the object reads the row")
    func updateElsewhereThenUndo() throws {
        let coordinator = try ChangeTestSupport.coordinator()
        let f = try Fixture(Self.start, coordinator: coordinator)
        f.context.automaticallyMergesChangesFromParent = true
        try Self.editUnsaved(f, "a1", "name", "a1 edited")
        let other = ManagedObjectContext(coordinator: coordinator)
        try other.existingObject(with: f["a1"].objectID).setValue(Int64(-1), forKey: "rank")
        try other.save()
        f.context.processPendingMerges()
        // Left for the merge policy (automatic merges keep an edited object as read): nothing yet.
        #expect(try f.check() == [])
        #expect(try f["a1"].value(forKey: "rank") as? Int64 == 1)
        // The edit undone: a1 has no changes, reads rank -1 and leaves the predicate ([0,0] deleted).
        try f["a1"].setValue("a1", forKey: "name")
        f.context.processPendingChanges()
        #expect(try f.check() == ["W", "O(del,[0,0])", "D"])
        #expect(!f["a1"].hasChanges)
        #expect(try f["a1"].value(forKey: "rank") as? Int64 == -1)
    }

    @Test("a batch update of the section key under an unsaved edit, the edit undone: a move to a new section")
    func batchUpdateThenUndo() throws {
        let f = try Fixture([("a1", "A", 1), ("a2", "A", 2)])
        try Self.editUnsaved(f, "a1", "name", "a1 edited")
        _ = try f.context.execute(
            BatchUpdateRequest(
                entityName: "Item", predicate: try PredicateNode(format: "name == %@", "a1"), propertiesToUpdate: ["group": .value("B")]))
        #expect(try f.check() == [])
        try f["a1"].setValue("a1", forKey: "name")
        f.context.processPendingChanges()
        // A:[a2] B:[a1]: section B inserted at 1, a1 moved from [0,0] to [1,0].
        #expect(try f.check() == ["W", "S(ins,1)", "O(move,[0,0]→[1,0])", "D"])
        #expect(try f["a1"].value(forKey: "group") as? String == "B")
    }
}
