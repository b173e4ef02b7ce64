import CDQIPredicate
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// Item 4 of issue 17, differential: random inserts, updates (of the predicate's, the sort's and the
/// section's keys too), deletes, processings and saves, in the controller's context and in another
/// context whose saves the controller's context merges, and batch deletes and updates (of the rank and
/// the group) run in either context (16 seeds × 250 steps). After each step the controller's sections
/// equal a fresh fetch, and replaying the step's callbacks over the previous sections gives them
/// exactly.
@Suite("Changes: fetched-results controller, differential")
struct FetchedResultsDifferentialTests {
    /// A small deterministic generator (SplitMix64), so that a failing seed can be replayed.
    struct SplitMix {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Int(z % UInt64(bound))
        }
    }

    @Test("random steps keep the controller equal to a fresh fetch, and its callbacks replay exactly", arguments: Array(1...16))
    func randomSteps(seed: Int) throws {
        var random = SplitMix(state: UInt64(seed))
        let coordinator = try ChangeTestSupport.coordinator()
        let context = ManagedObjectContext(coordinator: coordinator)
        context.automaticallyMergesChangesFromParent = true
        let other = ManagedObjectContext(coordinator: coordinator)
        other.automaticallyMergesChangesFromParent = true
        // Both contexts edit the same rows: the later save wins.
        context.mergePolicy = .mergeByPropertyObjectTrump
        other.mergePolicy = .mergeByPropertyObjectTrump
        let groups: [String?] = [nil, "A", "B", "C", "D"]
        var counter = 0
        func newName() -> String {
            counter += 1
            return "n\(counter)"
        }
        let request = try ChangeTestSupport.request()
        for _ in 0..<8 {
            try ChangeTestSupport.item(newName(), groups[random.next(groups.count)], Int64(random.next(8) - 2), in: context)
        }
        try context.save()
        let controller = FetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: seed % 3 == 0 ? nil : "group",
            cacheName: nil)
        let recorder = ControllerRecorder()
        controller.delegate = recorder
        try controller.performFetch()

        func randomChange(in target: ManagedObjectContext) throws {
            let live = try target.fetch(FetchRequest(entityName: "Item", sortDescriptors: [FetchSortDescriptor(keyPath: "name")]))
            switch random.next(6) {
            case 0, 1:
                try ChangeTestSupport.item(newName(), groups[random.next(groups.count)], Int64(random.next(8) - 2), in: target)
            case 2 where !live.isEmpty:
                try target.delete(live[random.next(live.count)])
            case 3 where !live.isEmpty:
                try live[random.next(live.count)].setValue(Int64(random.next(8) - 2), forKey: "rank")
            case 4 where !live.isEmpty:
                try live[random.next(live.count)].setValue(groups[random.next(groups.count)], forKey: "group")
            case 5 where !live.isEmpty:
                try live[random.next(live.count)].setValue(newName(), forKey: "name")
            default:
                break
            }
        }

        /// Saves; a row edited here and deleted elsewhere is a conflict for every policy: then the
        /// changes are rolled back (which the controller reports too).
        func saveOrRollBack(_ target: ManagedObjectContext) throws {
            do {
                try target.save()
            } catch ContextError.mergeConflicts {
                target.rollback()
            }
        }

        /// A batch delete or update of the rows with one rank or one group, without loading them.
        func randomBatch(in target: ManagedObjectContext) throws {
            let rank = Int64(random.next(8) - 2)
            let group = groups[random.next(groups.count)]
            let byRank = try PredicateNode(format: "rank == %@", rank)
            let byGroup = try group.map { try PredicateNode(format: "group == %@", $0) } ?? PredicateNode(format: "group == nil", argumentArray: [])
            switch random.next(3) {
            case 0:
                _ = try target.execute(BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Item", predicate: byRank)))
            case 1:
                _ = try target.execute(
                    BatchUpdateRequest(
                        entityName: "Item", predicate: byGroup, propertiesToUpdate: ["rank": .value(Int64(random.next(8) - 2))]))
            default:
                _ = try target.execute(
                    BatchUpdateRequest(
                        entityName: "Item", predicate: byRank, propertiesToUpdate: ["group": .value(groups[random.next(groups.count)])]))
            }
        }

        var steps = 0, reported = 0
        for _ in 0..<250 {
            let before = ControllerRecorder.sections(of: controller)
            recorder.reset()
            // One to three changes, then a processing, a save, or a save elsewhere merged here.
            let kind = random.next(5)
            switch kind {
            case 3, 4:
                // A batch here (merged at once) or elsewhere (merged at the next processing of merges),
                // while the controller's context may hold unsaved changes.
                if kind == 3 {
                    try randomBatch(in: context)
                } else {
                    try randomBatch(in: other)
                    context.processPendingMerges()
                }
            case 0:
                for _ in 0...random.next(3) { try randomChange(in: context) }
                context.processPendingChanges()
            case 1:
                for _ in 0...random.next(3) { try randomChange(in: context) }
                try saveOrRollBack(context)
            default:
                for _ in 0...random.next(3) { try randomChange(in: other) }
                try saveOrRollBack(other)
                context.processPendingMerges()
            }
            steps += 1
            let now = ControllerRecorder.sections(of: controller)
            if !recorder.events.isEmpty {
                reported += 1
                let replayed = recorder.replay(over: before)
                func show(_ sections: ControllerRecorder.Sections?) -> String {
                    sections.map { $0.map { "\($0.name):\($0.objects.map(ChangeTestSupport.name))" }.joined(separator: " ") } ?? "nil"
                }
                #expect(
                    replayed.map { ControllerRecorder.same($0, now) } == true,
                    "seed \(seed) step \(steps): \(recorder.log) before \(show(before)) now \(show(now)) replayed \(show(replayed))")
            } else {
                #expect(ControllerRecorder.same(before, now), "seed \(seed) step \(steps): changed without callbacks")
            }
            // A fresh fetch (it processes nothing new: everything was processed above).
            recorder.reset()
            let fresh = try context.fetch(request)
            #expect(recorder.log.isEmpty, "seed \(seed) step \(steps): step kind \(kind): the check's fetch reported \(recorder.log)")
            #expect(
                controller.fetchedObjects.map { $0.elementsEqual(fresh, by: ===) } == true,
                "seed \(seed) step \(steps): \(recorder.log) \((controller.fetchedObjects ?? []).map(ChangeTestSupport.name)) fresh \(fresh.map(ChangeTestSupport.name))"
            )
            if controller.sectionNameKeyPath != nil {
                var names: [String] = []
                for object in fresh {
                    let name = (try object.value(forKey: "group") as? String) ?? ""
                    if names.last != name { names.append(name) }
                }
                #expect(controller.sections?.map(\.name) == names, "seed \(seed) step \(steps)")
            }
            for (section, info) in (controller.sections ?? []).enumerated() {
                for (row, object) in info.objects.enumerated() {
                    #expect(controller.indexPath(forObject: object) == [section, row])
                }
            }
        }
        // The run exercised the controller (most steps change the results).
        #expect(reported > 80)
    }
}
