import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// Item 4 of issue 17: the fetched-results controller against the scenarios of the reference's §7
/// (Item(name, group, rank), sorted by group then rank, sections by group, `rank >= 0`). Each expected
/// sequence is §7's; each test also replays the callbacks over the previous sections and compares the
/// result, and the controller's sections, with a fresh fetch.
@Suite("Changes: fetched-results controller scenarios (§7)")
struct FetchedResultsScenarioTests {
    /// A context on an in-memory store holding `items` (saved), a tracking controller on it, and the
    /// items by name.
    final class Fixture {
        let context: ManagedObjectContext
        let controller: FetchedResultsController
        let recorder = ControllerRecorder()
        var items: [String: ManagedObject] = [:]
        var before: ControllerRecorder.Sections = []

        let byName: Bool

        init(
            _ items: [(String, String?, Int64)], coordinator: PersistentStoreCoordinator? = nil, sectioned: Bool = true,
            byName: Bool = true
        ) throws {
            self.byName = byName
            context = ManagedObjectContext(coordinator: try coordinator ?? ChangeTestSupport.coordinator())
            for (name, group, rank) in items {
                self.items[name] = try ChangeTestSupport.item(name, group, rank, in: context)
            }
            try context.save()
            controller = FetchedResultsController(
                fetchRequest: try ChangeTestSupport.request(byName: byName), managedObjectContext: context,
                sectionNameKeyPath: sectioned ? "group" : nil, cacheName: nil)
            controller.delegate = recorder
            controller.deliversSnapshots = true
            try controller.performFetch()
            recorder.reset()
            before = ControllerRecorder.sections(of: controller)
        }

        subscript(name: String) -> ManagedObject { items[name]! }

        func set(_ name: String, _ key: String, _ value: Any?) throws {
            try items[name]!.setValue(value, forKey: key)
        }

        /// The callbacks so far, after checking that they replay to the controller's sections and that
        /// those equal a fresh fetch.
        func check(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
            let now = ControllerRecorder.sections(of: controller)
            if !recorder.events.isEmpty {
                let replayed = recorder.replay(over: before)
                #expect(replayed.map { ControllerRecorder.same($0, now) } == true, sourceLocation: sourceLocation)
            }
            let fresh = try context.fetch(try ChangeTestSupport.request(byName: byName))
            var grouped: ControllerRecorder.Sections = []
            for object in fresh {
                let name = (try object.value(forKey: "group") as? String) ?? ""
                if grouped.last?.name == name { grouped[grouped.count - 1].objects.append(object) } else { grouped.append((name, [object])) }
            }
            #expect(ControllerRecorder.same(grouped, now), sourceLocation: sourceLocation)
            return recorder.log
        }
    }

    @Test("S1: insert into an empty result: a section insert, then the row")
    func s1() throws {
        let f = try Fixture([])
        #expect(f.controller.sections?.count == 0)
        try ChangeTestSupport.item("a", "A", 1, in: f.context)
        f.context.processPendingChanges()
        #expect(try f.check() == ["W", "S(ins,0)", "O(ins,→[0,0])", "D"])
    }

    @Test("S2: insert into a new section after an existing one")
    func s2() throws {
        let f = try Fixture([("a1", "A", 1)])
        try ChangeTestSupport.item("b", "B", 1, in: f.context)
        f.context.processPendingChanges()
        #expect(try f.check() == ["W", "S(ins,1)", "O(ins,→[1,0])", "D"])
    }

    @Test("S3: insert at the top; the shifted rows are not reported")
    func s3() throws {
        let f = try Fixture([("a1", "A", 1), ("a2", "A", 2)])
        try ChangeTestSupport.item("a0", "A", 0, in: f.context)
        f.context.processPendingChanges()
        #expect(try f.check() == ["W", "O(ins,→[0,0])", "D"])
    }

    @Test("S4: deleting a section's last row deletes the section")
    func s4() throws {
        let f = try Fixture([("a1", "A", 1), ("b1", "B", 1)])
        try f.context.delete(f["b1"])
        f.context.processPendingChanges()
        #expect(try f.check() == ["W", "O(del,[1,0])", "S(del,1)", "D"])
    }

    @Test("S5: delete a row")
    func s5() throws {
        let f = try Fixture([("a1", "A", 1), ("a2", "A", 2)])
        try f.context.delete(f["a1"])
        try f.context.save()
        #expect(try f.check() == ["W", "O(del,[0,0])", "D"])
    }

    @Test("S6: a change to a non-key property is an update")
    func s6() throws {
        let f = try Fixture([("a1", "A", 1), ("a2", "A", 2)], byName: false)
        try f.set("a2", "name", "a2 renamed")
        f.context.processPendingChanges()
        #expect(try f.check() == ["W", "O(upd,[0,1]→[0,1])", "D"])
    }

    @Test("S7: a sort key change that reorders is a move")
    func s7() throws {
        let f = try Fixture([("a1", "A", 1), ("a2", "A", 2), ("a3", "A", 3)])
        try f.set("a1", "rank", Int64(5))
        f.context.processPendingChanges()
        #expect(try f.check() == ["W", "O(move,[0,0]→[0,2])", "D"])
    }

    @Test("S8: a sort key change that keeps the order is lowered to an update, never a move X→X")
    func s8() throws {
        let f = try Fixture([("a1", "A", 1), ("a2", "A", 5)])
        try f.set("a1", "rank", Int64(2))
        f.context.processPendingChanges()
        #expect(try f.check() == ["W", "O(upd,[0,0]→nil)", "D"])
    }

    @Test("S9: a section key change moves the row to the other section")
    func s9() throws {
        let f = try Fixture([("a1", "A", 1), ("b1", "B", 1), ("b2", "B", 2)])
        try f.set("b1", "group", "A")
        try f.set("b1", "rank", Int64(2))
        f.context.processPendingChanges()
        #expect(try f.check() == ["W", "O(move,[1,0]→[0,1])", "D"])
    }

    @Test("S10: the move empties its source section, which is deleted")
    func s10() throws {
        let f = try Fixture([("a1", "A", 1), ("b1", "B", 1)])
        try f.set("b1", "group", "A")
        f.context.processPendingChanges()
        // b1 (A, 1) sorts after a1 (A, 1) by name.
        #expect(try f.check() == ["W", "S(del,1)", "O(move,[1,0]→[0,1])", "D"])
    }

    @Test("S11: the move creates its destination section")
    func s11() throws {
        let f = try Fixture([("a1", "A", 1), ("a2", "A", 2)])
        try f.set("a2", "group", "C")
        f.context.processPendingChanges()
        #expect(try f.check() == ["W", "S(ins,1)", "O(move,[0,1]→[1,0])", "D"])
    }

    @Test("S12: leaving the predicate is a delete")
    func s12() throws {
        let f = try Fixture([("a1", "A", 1), ("a2", "A", 2)])
        try f.set("a2", "rank", Int64(-1))
        f.context.processPendingChanges()
        #expect(try f.check() == ["W", "O(del,[0,1])", "D"])
    }

    @Test("S13: entering the predicate is an insert")
    func s13() throws {
        let f = try Fixture([("a1", "A", 1), ("h", "A", -1)])
        #expect(f.controller.fetchedObjects?.count == 1)
        try f.set("h", "rank", Int64(3))
        f.context.processPendingChanges()
        #expect(try f.check() == ["W", "O(ins,→[0,1])", "D"])
    }

    @Test("S14: an insert above an updated row: the update's old and new paths differ")
    func s14() throws {
        let f = try Fixture([("a1", "A", 1), ("a2", "A", 2), ("a3", "A", 3)], byName: false)
        try ChangeTestSupport.item("a0", "A", 0, in: f.context)
        try f.set("a3", "name", "a3 renamed")
        try f.context.save()
        #expect(try f.check() == ["W", "O(ins,→[0,0])", "O(upd,[0,2]→[0,3])", "D"])
    }

    @Test("S14, unsectioned: the difference inserts a0 at 0 and pairs a3's remove at 2 with its insert at 3")
    func s14Difference() throws {
        let f = try Fixture([("a1", "A", 1), ("a2", "A", 2), ("a3", "A", 3)], sectioned: false, byName: false)
        let a0 = try ChangeTestSupport.item("a0", "A", 0, in: f.context)
        try f.set("a3", "name", "a3 renamed")
        f.context.processPendingChanges()
        let difference = try #require(f.recorder.differences.first)
        let a3 = f["a3"].objectID
        #expect(difference.insertions.count == 2)
        #expect(difference.removals.count == 1)
        #expect(difference.removals.contains(.remove(offset: 2, element: a3, associatedWith: 3)))
        #expect(difference.insertions.contains(.insert(offset: 3, element: a3, associatedWith: 2)))
        #expect(difference.insertions.contains(.insert(offset: 0, element: a0.objectID, associatedWith: nil)))
        let old = f.before[0].objects.map(\.objectID)
        #expect(old.applying(difference) == f.controller.fetchedObjects?.map(\.objectID))
    }

    @Test("S15: one save deletes the last row and inserts a first one")
    func s15() throws {
        let f = try Fixture([("a1", "A", 1), ("a2", "A", 2), ("a3", "A", 3), ("a4", "A", 4)])
        try f.context.delete(f["a4"])
        try ChangeTestSupport.item("a0", "A", 0, in: f.context)
        try f.context.save()
        #expect(try f.check() == ["W", "O(del,[0,3])", "O(ins,→[0,0])", "D"])
    }

    @Test("S16: inserted and deleted before processing: no callbacks at all")
    func s16() throws {
        let f = try Fixture([("a1", "A", 1)])
        let x = try ChangeTestSupport.item("x", "A", 5, in: f.context)
        try f.context.delete(x)
        f.context.processPendingChanges()
        #expect(try f.check() == [])
    }

    @Test("S17: a change to another entity: no callbacks")
    func s17() throws {
        let f = try Fixture([("a1", "A", 1)])
        let other = try f.context.insertNewObject(forEntityName: "Other")
        try other.setValue("t", forKey: "title")
        try f.context.save()
        #expect(try f.check() == [])
    }

    @Test("S18: IDs deleted elsewhere, merged through mergeChanges(fromRemoteContextSave:into:)")
    func s18() throws {
        let coordinator = try ChangeTestSupport.coordinator()
        let f = try Fixture([("a1", "A", 1), ("a2", "A", 2), ("b1", "B", 1)], coordinator: coordinator)
        // Another context deletes group B's rows (what a batch delete's result would list).
        let other = ManagedObjectContext(coordinator: coordinator)
        let b1 = try other.existingObject(with: f["b1"].objectID)
        try other.delete(b1)
        let saved = try other.save()
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: SaveChanges(deleted: saved.deleted), into: [f.context])
        #expect(try f.check() == ["W", "O(del,[1,0])", "S(del,1)", "D"])
    }

    @Test("S19: a sort key changed and saved elsewhere, merged automatically: a lowered update, fresh values")
    func s19() throws {
        let coordinator = try ChangeTestSupport.coordinator()
        let f = try Fixture([("a1", "A", 1)], coordinator: coordinator)
        f.context.automaticallyMergesChangesFromParent = true
        let other = ManagedObjectContext(coordinator: coordinator)
        try other.existingObject(with: f["a1"].objectID).setValue(Int64(4), forKey: "rank")
        try other.save()
        f.context.processPendingMerges()
        #expect(f.recorder.log == ["W", "O(upd,[0,0]→nil)", "D"])
        #expect(try f["a1"].value(forKey: "rank") as? Int64 == 4)
        _ = try f.check()
    }

    @Test("S20: a merge keeps a pending local edit and brings the new rank; the next save meets the conflict")
    func s20() throws {
        let coordinator = try ChangeTestSupport.coordinator()
        let f = try Fixture([("a1", "A", 1)], coordinator: coordinator)
        try f.set("a1", "name", "local")
        f.context.processPendingChanges()
        f.recorder.reset()
        f.before = ControllerRecorder.sections(of: f.controller)
        let other = ManagedObjectContext(coordinator: coordinator)
        try other.existingObject(with: f["a1"].objectID).setValue(Int64(4), forKey: "rank")
        let saved = try other.save()
        f.context.mergeChanges(saved)
        #expect(f.recorder.log == ["W", "O(upd,[0,0]→nil)", "D"])
        #expect(try f["a1"].value(forKey: "name") as? String == "local")
        #expect(try f["a1"].value(forKey: "rank") as? Int64 == 4)
        // mergeChanges moved the snapshot to the new version: this save writes without a conflict.
        try f.context.save()
        let check = ManagedObjectContext(coordinator: coordinator)
        let row = try check.existingObject(with: f["a1"].objectID)
        #expect(try row.value(forKey: "name") as? String == "local")
        #expect(try row.value(forKey: "rank") as? Int64 == 4)
    }

    @Test("S21: reset sends no per-object callbacks; performFetch starts again")
    func s21() throws {
        let f = try Fixture([("a1", "A", 1)])
        f.context.reset()
        #expect(f.recorder.log == [])
        try f.controller.performFetch()
        #expect(f.controller.fetchedObjects?.count == 1)
    }

    @Test("S22: a nil section value is the section \"\", first in ascending order, with no index title")
    func s22() throws {
        let f = try Fixture([("a1", "A", 1), ("x", nil, 1)])
        let sections = try #require(f.controller.sections)
        #expect(sections.map(\.name) == ["", "A"])
        #expect(sections.map(\.indexTitle) == [nil, "A"])
        #expect(sections.map(\.numberOfObjects) == [1, 1])
        #expect(f.controller.sectionIndexTitles == ["A"])
        #expect(f.controller.object(at: [1, 0]) === f["a1"])
        #expect(f.controller.indexPath(forObject: f["x"]) == [0, 0])
        #expect(f.controller.object(at: [2, 0]) == nil)
    }

    @Test("a request without sort descriptors is refused with a typed error")
    func missingSort() throws {
        let context = ManagedObjectContext(coordinator: try ChangeTestSupport.coordinator())
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest(entityName: "Item"), managedObjectContext: context, sectionNameKeyPath: nil,
            cacheName: nil)
        #expect(throws: FetchedResultsControllerError.missingSortDescriptors(entity: "Item")) { try controller.performFetch() }
        #expect(controller.fetchedObjects == nil)
    }

    @Test("the snapshot after a fetch and after a change; reloaded holds the updated and moved IDs")
    func snapshots() throws {
        let f = try Fixture([("a1", "A", 1), ("a2", "A", 2), ("a3", "A", 3)], byName: false)
        try f.set("a1", "rank", Int64(5))
        try f.set("a2", "name", "a2 renamed")
        f.context.processPendingChanges()
        let snapshot = try #require(f.recorder.snapshots.last)
        #expect(snapshot.sectionNames == ["A"])
        #expect(snapshot.items == [[f["a2"].objectID, f["a3"].objectID, f["a1"].objectID]])
        #expect(snapshot.reloadedItemIdentifiers == [f["a1"].objectID, f["a2"].objectID])
        _ = try f.check()
    }
}
