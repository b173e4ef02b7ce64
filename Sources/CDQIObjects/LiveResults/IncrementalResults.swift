import CDQIPredicate
import Foundation

/// The sorted results of a fetch request (object IDs), kept up to date from the objects a change
/// touched instead of being fetched again: each touched object is evaluated against the predicate in
/// memory and its entry spliced into the sorted list by binary search on its sort keys (Core Data's
/// order: SQLite's comparison per key, ties by primary key, unsaved objects last). What a splice does
/// is told as a ``IncrementalResults/Splice`` (the changeset a list view applies).
///
/// Whether a change can be applied this way is decided by the ``IncrementalResultsPlan``; when it
/// cannot, ``apply(touched:updated:resolve:)`` says so and the caller fetches again
/// (``init(plan:objects:)``).
package struct IncrementalResults: Sendable {
    /// Where an entry sits: its sort keys, then the ID it was placed with (ties).
    struct Key: Sendable {
        let values: [StoredValue]
        let tie: ManagedObjectID
    }

    /// What one application changed, in ``LiveQueryChange``'s terms: offsets removed from the results
    /// before, offsets inserted in the results after, moves (old offset, new offset, by new offset) and
    /// rows that kept their place but whose object changed.
    package struct Splice: Sendable, Equatable {
        package var removed: [Int] = []
        package var inserted: [Int] = []
        package var moved: [(from: Int, to: Int)] = []
        package var updated: [Int] = []

        package var isEmpty: Bool { removed.isEmpty && inserted.isEmpty && moved.isEmpty && updated.isEmpty }

        package static func == (left: Splice, right: Splice) -> Bool {
            left.removed == right.removed && left.inserted == right.inserted && left.updated == right.updated
                && left.moved.map(\.from) == right.moved.map(\.from) && left.moved.map(\.to) == right.moved.map(\.to)
        }
    }

    /// What ``apply(touched:updated:resolve:)`` found.
    package enum Outcome: Sendable {
        /// The results are as they were.
        case unchanged
        /// The results changed as told.
        case changed(Splice)
        /// The change cannot be applied exactly: fetch again. The results are as they were.
        case refetch
    }

    package let plan: IncrementalResultsPlan
    /// The results, in order.
    package private(set) var ids: [ManagedObjectID]
    /// The key of each result, at the same offsets as ``ids``.
    private var keys: [Key]
    /// Each result's key, by ID.
    private var members: [ManagedObjectID: Key]
    /// For results that show a context's unsaved changes: the objects that had unsaved changes at the
    /// last fetch or application (evaluated again at the next one).
    var unsaved: Set<ManagedObjectID> = []

    /// Takes the objects a fetch of the plan's request returned, in its order.
    ///
    /// - Throws: what reading a sort key throws (``PredicateSQLError`` for a to-many key path,
    ///   ``ManagedObjectError`` for an object that cannot be read).
    package init(plan: IncrementalResultsPlan, objects: [ManagedObject]) throws {
        self.plan = plan
        var ids: [ManagedObjectID] = [], keys: [Key] = []
        ids.reserveCapacity(objects.count)
        keys.reserveCapacity(objects.count)
        var members: [ManagedObjectID: Key] = [:]
        members.reserveCapacity(objects.count)
        for object in objects {
            let key = try Self.key(of: object, plan: plan)
            ids.append(key.tie)
            keys.append(key)
            members[key.tie] = key
        }
        self.ids = ids
        self.keys = keys
        self.members = members
    }

    private static func key(of object: ManagedObject, plan: IncrementalResultsPlan) throws -> Key {
        var values: [StoredValue] = []
        values.reserveCapacity(plan.request.sortDescriptors.count)
        for descriptor in plan.request.sortDescriptors {
            values.append(try InMemoryOrder.value(of: object, at: descriptor.keyPath))
        }
        return Key(values: values, tie: object.objectID)
    }

    /// Whether `left` comes before `right` in the request's order.
    private func precedes(_ left: Key, _ right: Key) -> Bool {
        for (index, descriptor) in plan.request.sortDescriptors.enumerated() {
            let order = InMemoryOrder.compare(left.values[index], right.values[index], descriptor.comparison)
            if order != .orderedSame {
                return descriptor.ascending ? order == .orderedAscending : order == .orderedDescending
            }
        }
        return InMemoryOrder.tieBreak(left.tie, right.tie)
    }

    /// The first offset whose key is not before `key`.
    private func insertionOffset(of key: Key) -> Int {
        var low = 0, high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if precedes(keys[middle], key) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The offset of the result with this ID, or `nil`.
    private func offset(of id: ManagedObjectID) -> Int? {
        guard let key = members[id] else { return nil }
        let offset = insertionOffset(of: key)
        return ids.indices.contains(offset) && ids[offset] == id ? offset : nil
    }

    /// Renames results (a save gave objects their permanent IDs); their places do not change. Each
    /// renamed object must be among the touched objects of the next application, which places it anew.
    package mutating func rename(_ renames: [ManagedObjectID: ManagedObjectID]) {
        for (old, new) in renames {
            guard let offset = offset(of: old), let key = members.removeValue(forKey: old) else { continue }
            ids[offset] = new
            members[new] = key
        }
    }

    /// Applies a change that touched the objects `touched` (inserted, updated, deleted, refreshed:
    /// any object whose membership or sort keys may have changed). `resolve` gives each touched object
    /// of the request's entity as it is now, or `nil` when it no longer exists (deleted); the object
    /// returned is evaluated against the predicate and placed by its sort keys. `updated` names the
    /// objects whose rows count as changed in place when they keep their place.
    ///
    /// - Returns: ``Outcome/refetch`` when a touched object is of an entity the request reads through
    ///   a relationship, when so many objects were touched that a fetch is cheaper, or when an object
    ///   cannot be evaluated; the results are then as they were.
    package mutating func apply(
        touched: Set<ManagedObjectID>, updated: Set<ManagedObjectID>, resolve: (ManagedObjectID) throws -> ManagedObject?
    ) -> Outcome {
        var candidates: [ManagedObjectID] = []
        for id in touched {
            let lineage = id.entity.lineage
            if plan.dependsOn(lineage) { return .refetch }
            if plan.fetches(lineage) { candidates.append(id) }
        }
        if candidates.isEmpty { return .unchanged }
        // Past an eighth of the results, splicing costs about what a fetch does.
        if candidates.count > max(64, ids.count / 8) { return .refetch }

        // Each candidate's entry now (nil: not a result), worked out before anything changes.
        var placed: [ManagedObjectID: Key] = [:]
        for id in candidates {
            do {
                guard let object = try resolve(id), !object.isDeleted, object.objectID == id else { continue }
                if let predicate = plan.request.predicate, try !predicate.evaluate(with: object) { continue }
                placed[id] = try Self.key(of: object, plan: plan)
            } catch {
                return .refetch
            }
        }

        // Old places, then out with every candidate that was a result.
        var oldOffsets: [ManagedObjectID: Int] = [:]
        for id in candidates {
            guard members[id] != nil else { continue }
            guard let offset = offset(of: id) else { return .refetch }
            oldOffsets[id] = offset
        }
        if oldOffsets.isEmpty && placed.isEmpty { return .unchanged }
        // One result placed again (the common change): moved in place, shifting only the rows between.
        if oldOffsets.count == 1, placed.count == 1, let old = oldOffsets.first, let key = placed[old.key] {
            let to = move(from: old.value, to: key)
            members[old.key] = key
            return Self.splice(old: oldOffsets, new: [old.key: to], updated: updated)
        }
        for offset in oldOffsets.values.sorted(by: >) {
            ids.remove(at: offset)
            keys.remove(at: offset)
        }
        for id in oldOffsets.keys { members[id] = nil }
        // In with the new entries, lowest first: each lands after those placed before it, so the
        // offsets found are final.
        let entering = placed.values.sorted(by: precedes)
        var newOffsets: [ManagedObjectID: Int] = [:]
        for key in entering {
            let offset = insertionOffset(of: key)
            ids.insert(key.tie, at: offset)
            keys.insert(key, at: offset)
            members[key.tie] = key
            newOffsets[key.tie] = offset
        }
        return Self.splice(old: oldOffsets, new: newOffsets, updated: updated)
    }

    /// Moves the result at `from` to where `key` places it among the others, gives it that key, and
    /// returns its new offset.
    private mutating func move(from: Int, to key: Key) -> Int {
        // The first offset, among the results but the moving one, whose key is not before `key`.
        var low = 0, high = keys.count - 1
        while low < high {
            let middle = (low + high) / 2
            if precedes(keys[middle < from ? middle : middle + 1], key) { low = middle + 1 } else { high = middle }
        }
        Self.move(&ids, from: from, to: low)
        Self.move(&keys, from: from, to: low)
        keys[low] = key
        return low
    }

    /// Moves one element of `array` from `from` to `to`, sliding the elements between by one.
    private static func move<Element>(_ array: inout [Element], from: Int, to: Int) {
        guard from != to, array.indices.contains(from), array.indices.contains(to) else { return }
        array.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let moving = (base + from).move()
            if to < from {
                (base + to + 1).moveInitialize(from: base + to, count: from - to)
            } else {
                (base + from).moveInitialize(from: base + from + 1, count: to - from)
            }
            (base + to).initialize(to: moving)
        }
    }

    /// The changeset for objects that left (`old` only), entered (`new` only) or were placed again
    /// (both). One placed again is a row updated in place, not a move, when as many unmoved rows precede
    /// it before and after and the others sharing its gap between unmoved rows keep their order.
    static func splice(old: [ManagedObjectID: Int], new: [ManagedObjectID: Int], updated: Set<ManagedObjectID>) -> Outcome {
        var splice = Splice()
        let oldUnfixed = old.values.sorted()
        let newUnfixed = new.values.sorted()
        var groups: [Int: [(id: ManagedObjectID, from: Int, to: Int)]] = [:]
        var moved: [(from: Int, to: Int)] = []
        for (id, from) in old {
            guard let to = new[id] else {
                splice.removed.append(from)
                continue
            }
            let rankBefore = from - oldUnfixed.countBelow(from)
            let rankAfter = to - newUnfixed.countBelow(to)
            if rankBefore == rankAfter {
                groups[rankBefore, default: []].append((id, from, to))
            } else {
                moved.append((from, to))
            }
        }
        for (id, to) in new where old[id] == nil { splice.inserted.append(to) }
        for members in groups.values {
            let byOld = members.sorted { $0.from < $1.from }.map(\.id)
            let byNew = members.sorted { $0.to < $1.to }.map(\.id)
            if byOld == byNew {
                for member in members where updated.contains(member.id) { splice.updated.append(member.to) }
            } else {
                moved.append(contentsOf: members.map { ($0.from, $0.to) })
            }
        }
        splice.removed.sort()
        splice.inserted.sort()
        splice.updated.sort()
        splice.moved = moved.sorted { $0.to < $1.to }
        return splice.isEmpty ? .unchanged : .changed(splice)
    }
}

extension IncrementalResults {
    /// Whether the object with this ID is a result.
    package func contains(_ id: ManagedObjectID) -> Bool { members[id] != nil }

    /// The objects that had unsaved changes at the last fetch or application (results that show a
    /// context's unsaved changes only).
    package var unsavedIDs: Set<ManagedObjectID> { unsaved }
}
