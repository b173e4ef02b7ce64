import CDQIPredicate

/// An object's state as the last processing of pending changes reported it: what the next processing
/// compares against (Core Data's "current event").
struct ProcessedObjectState {
    let object: ManagedObject
    /// Whether it was inserted or saved, and not deleted.
    var isLive: Bool
    var attributes: [StoredValue]
    var toOne: [ObjectIdentifier?]
    var toMany: [[ObjectIdentifier]?]

    /// The object's current state.
    init(current object: ManagedObject, context: ManagedObjectContext) {
        self.object = object
        isLive = object.managedObjectContext === context && !object.deletedFlag
        attributes = object.isLoaded ? object.attributeValues : []
        toOne = object.isLoaded ? object.toOneValues.map { $0.map(ObjectIdentifier.init) } : []
        toMany = object.isLoaded ? object.toManyValues.map { $0.map { $0.objects.map(ObjectIdentifier.init) } } : []
    }

    /// The object's state as last read or saved (its snapshot); live unless inserted since.
    init(committed object: ManagedObject) {
        self.object = object
        isLive = !object.insertedFlag
        let snapshot = object.snapshot
        attributes = snapshot?.attributes ?? []
        toOne = snapshot?.toOne.map { $0.map(ObjectIdentifier.init) } ?? []
        toMany = object.toManyValues.map { storage in
            storage.map { ($0.committed ?? []).map(ObjectIdentifier.init) }
        }
    }

    /// The names of the properties whose values differ from `earlier`.
    func changedKeys(since earlier: ProcessedObjectState) -> Set<String> {
        var keys: Set<String> = []
        let entity = object.entity
        for attribute in entity.attributes {
            let now = attributes.indices.contains(attribute.index) ? attributes[attribute.index] : nil
            let then = earlier.attributes.indices.contains(attribute.index) ? earlier.attributes[attribute.index] : nil
            if let now, let then, now != then { keys.insert(attribute.name) }
        }
        for relationship in entity.relationships {
            let slot = relationship.slotIndex
            if relationship.isToMany {
                guard toMany.indices.contains(slot), let now = toMany[slot] else { continue }
                let then = earlier.toMany.indices.contains(slot) ? earlier.toMany[slot] : nil
                // Members not loaded then: compared with the committed members.
                let baseline = then ?? (object.toManyValues[slot]?.committed ?? []).map(ObjectIdentifier.init)
                if now != baseline { keys.insert(relationship.name) }
            } else {
                guard toOne.indices.contains(slot), earlier.toOne.indices.contains(slot) else { continue }
                if toOne[slot] != earlier.toOne[slot] { keys.insert(relationship.name) }
            }
        }
        return keys
    }
}

extension ManagedObjectContext {
    /// Works out what changed since the last processing: objects inserted, deleted, and updated (with
    /// the names of the properties changed), and when anything did, tells the fetched-results
    /// controllers and posts ``didChangeObjectsNotification`` (and yields on ``changes``).
    ///
    /// As in Core Data, changes are coalesced per processing: an object inserted and deleted in between
    /// appears in neither set, an object changed twice once in `updated`. It runs before every fetch and
    /// count, at the start of ``save()``, at the end of ``perform(_:)`` and ``performAndWait(_:)``, and
    /// when called.
    public func processPendingChanges() {
        // Nothing touched, processed or stale (every fetch and count of a context without changes asks):
        // nothing to work out, without the call.
        guard !(touched.values.isEmpty && processedStates.isEmpty && staleUnderChanges.isEmpty) else { return }
        processPendingChanges(recording: true)
    }

    /// With `recording` false (a save, which forgets the states once written), the states are not
    /// kept, and objects inserted since the last processing are reported without working out theirs.
    /// Returns the sets it posted that the save's did-save notification may reuse.
    @discardableResult
    func processPendingChanges(recording: Bool) -> PostedObjectSets {
        let refreshedStale = staleUnderChanges.isEmpty ? [] : refreshStaleObjectsWithoutChanges()
        guard !touched.values.isEmpty || !processedStates.isEmpty || !refreshedStale.isEmpty else { return PostedObjectSets() }
        // Only the context's change observers (fetched-results controllers) read the changed keys: a
        // save with none only needs to know whether a fetched object changed.
        let namesKeys = !changeObservers.isEmpty
        // Each object is looked up once, before its own state is recorded: with nothing processed
        // before, every lookup would miss (a save after no fetch: no hashing per object).
        let hasProcessedStates = !processedStates.isEmpty
        var change = ObjectsDidChange()
        var seen = Set<ObjectIdentifier>()
        // A save's inserted and updated objects, gathered first so that each set is built at its size
        // (no growing and rehashing as it fills). Unretained: the touched list keeps them alive until
        // the sets hold them, and the lists are only compared by identity after that (no retain and
        // release per object, when listed and when the lists are freed).
        var newlyInserted: [Unmanaged<ManagedObject>] = [], snapshotUpdated: [Unmanaged<ManagedObject>] = []
        if !recording {
            // Room for every touched object in either list: no growing and copying as they fill.
            newlyInserted.reserveCapacity(touched.values.count)
            snapshotUpdated.reserveCapacity(touched.values.count)
        }
        // Unretained: the list (a copy: nothing here changes the context's) holds each object for the
        // call (a retain and release per object cost a tenth of the loop).
        let objects = touched.values
        objects.forEachUnretained { _, object in
            let key = ObjectIdentifier(object)
            let processed = hasProcessedStates && processedStates[key] != nil
            if !recording, object.insertedFlag, !processed {
                // New since the last processing: inserted unless deleted again.
                if object.managedObjectContext === self && !object.deletedFlag { newlyInserted.append(.passUnretained(object)) }
                return
            }
            if !recording, !processed, object.isLoaded, !object.insertedFlag, !object.deletedFlag,
                object.managedObjectContext === self
            {
                // A save compares a fetched object with its snapshot: read the changes off the kept
                // originals, without building both states (the same answer, at a fraction of the cost).
                if namesKeys, let keys = object.changedKeysSinceSnapshot() {
                    if !keys.isEmpty {
                        snapshotUpdated.append(.passUnretained(object))
                        change.changedKeys[key] = keys
                    }
                    return
                }
                if !namesKeys {
                    // A change to a stored property is a change: the answer the save asks again before
                    // and after `willSave()` (kept by the object until it is written), so that a save
                    // compares each object once. Only an object without one compares the rest.
                    if object.snapshotVersion != nil && object.hasPersistentChanges {
                        snapshotUpdated.append(.passUnretained(object))
                        return
                    }
                    if let changed = object.changedSinceSnapshot() {
                        if changed { snapshotUpdated.append(.passUnretained(object)) }
                        return
                    }
                }
            }
            seen.insert(key)
            let earlier = (hasProcessedStates ? processedStates[key] : nil) ?? ProcessedObjectState(committed: object)
            let now = ProcessedObjectState(current: object, context: self)
            switch (earlier.isLive, now.isLive) {
            case (false, true):
                change.inserted.insert(object)
            case (true, false):
                change.deleted.insert(object)
            case (true, true):
                guard object.isLoaded else { break }
                let keys = now.changedKeys(since: earlier)
                if !keys.isEmpty {
                    change.updated.insert(object)
                    change.changedKeys[key] = keys
                }
            case (false, false):
                break
            }
            if recording { processedStates[key] = now }
        }
        var posted = PostedObjectSets()
        // Sets built from the lists alone are handed back with them (only a save's lists can be whole).
        let listsAreWhole = (inserted: change.inserted.isEmpty, updated: change.updated.isEmpty)
        // The touched list holds the unretained lists' objects until the sets do.
        withExtendedLifetime(objects) {
            change.inserted.formUnion(presized: newlyInserted)
            change.updated.formUnion(presized: snapshotUpdated)
        }
        if !recording && listsAreWhole.inserted { posted.inserted = (newlyInserted, change.inserted) }
        if !recording && listsAreWhole.updated { posted.updated = (snapshotUpdated, change.updated) }
        // Objects processed before that have left the list since: inserted then deleted, or refreshed.
        for (key, earlier) in processedStates where !seen.contains(key) {
            let object = earlier.object
            if earlier.isLive && (object.managedObjectContext !== self || object.deletedFlag) {
                change.deleted.insert(object)
            }
            processedStates[key] = nil
        }
        for object in refreshedStale where !change.deleted.contains(object) { change.refreshed.insert(object) }
        announce(change)
        return posted
    }

    /// Turns into faults the objects a merge left stale under unsaved changes (``staleUnderChanges``)
    /// whose changes have since been undone: without changes, they must show their row as it is now (as
    /// a fetch, which reads the row, does). Returns them, to be reported as refreshed (fetched-results
    /// controllers place them again). Objects still changed stay listed; deleted or gone ones leave the
    /// list.
    func refreshStaleObjectsWithoutChanges() -> [ManagedObject] {
        var refreshed: [ManagedObject] = []
        staleUnderChanges.removeAll { object in
            guard object.managedObjectContext === self, !object.deletedFlag, object.isLoaded,
                registered[object.objectID] === object
            else { return true }
            guard !object.hasChanges else { return false }
            object.turnIntoFault()
            touched.remove(object)
            processedStates[ObjectIdentifier(object)] = nil
            refreshed.append(object)
            return true
        }
        return refreshed
    }

    /// Makes an object's current state what the next processing compares against: a refresh or
    /// merge changed its values, which is not a change made here.
    func rebaseProcessedState(of object: ManagedObject) {
        let key = ObjectIdentifier(object)
        guard processedStates[key] != nil || object.touchedPosition >= 0 else { return }
        if object.isLoaded {
            processedStates[key] = ProcessedObjectState(current: object, context: self)
        } else {
            processedStates[key] = nil
        }
    }

    /// Forgets what was processed: everything is committed (after a save) or discarded.
    func forgetProcessedChanges() {
        processedStates.removeAll()
        // Saved (the merge policy has met their rows), faulted (rollback) or gone (reset).
        staleUnderChanges.removeAll()
    }
}

/// The inserted and updated objects a save's processing of pending changes posted, each set with the
/// list it was built from (in the context's order), when that list alone made it: a save whose own
/// list holds the same objects in the same order posts the same set in its did-save notification
/// instead of hashing every object again.
struct PostedObjectSets {
    /// The list holds its objects unretained: the set holds each of them.
    typealias Posted = (list: [Unmanaged<ManagedObject>], set: Set<ManagedObject>)
    var inserted: Posted?
    var updated: Posted?

    /// `objects` as a set: the posted set when it was built from the same objects in the same order
    /// (compared by identity, without hashing), a new set otherwise.
    static func set(of objects: [ManagedObject], reusing posted: Posted?) -> Set<ManagedObject> {
        if let posted, posted.list.count == objects.count, sameObjects(posted.list, objects) { return posted.set }
        return Set(presized: objects)
    }

    /// Whether the two lists hold the same objects in the same order (by address: no retain per object).
    private static func sameObjects(_ list: [Unmanaged<ManagedObject>], _ objects: [ManagedObject]) -> Bool {
        var same = true
        objects.forEachUnretained { position, object in
            if same && list[position].toOpaque() != Unmanaged.passUnretained(object).toOpaque() { same = false }
        }
        return same
    }
}

extension ManagedObject {
    /// The names of the properties whose values differ from the snapshot, read off the originals the
    /// object keeps for the slots written since (``ProcessedObjectState/changedKeys(since:)`` against
    /// its committed state gives the same names); `nil` without a snapshot.
    func changedKeysSinceSnapshot() -> Set<String>? {
        var keys: Set<String> = []
        guard
            walkChangesSinceSnapshot({ name in
                keys.insert(name)
                return true
            })
        else { return nil }
        return keys
    }

    /// Whether ``changedKeysSinceSnapshot()`` would name a property (`nil` when it would be `nil`),
    /// without building the names: it stops at the first change.
    func changedSinceSnapshot() -> Bool? {
        var changed = false
        guard
            walkChangesSinceSnapshot({ _ in
                changed = true
                return false
            })
        else { return nil }
        return changed
    }

    /// Calls `visit` with the name of each property whose value differs from the snapshot, until it
    /// returns `false`; `false` without a snapshot or when a written slot names no property.
    private func walkChangesSinceSnapshot(_ visit: (String) -> Bool) -> Bool {
        guard snapshotVersion != nil else { return false }
        let layout = entity
        // An attribute's slot is its index in the layout's list. Values are compared in place (copying
        // each out of its array cost more than comparing it), and a save asks this of every object.
        let attributes = layout.attributes
        var named = true
        var stopped = false
        attributeValues.withUnsafeBufferPointer { current in
            guard let base = current.baseAddress else { return }
            var position = 0
            while position < originalAttributes.count {
                let original = originalAttributes[position]
                position += 1
                let slot = original.slot
                guard slot >= 0, slot < current.count, !withUnsafePointer(to: original.value, { StoredValue.same(base + slot, $0) })
                else { continue }
                guard slot < attributes.count, attributes[slot].index == slot else {
                    named = false
                    return
                }
                guard visit(attributes[slot].name) else {
                    stopped = true
                    return
                }
            }
        }
        guard named else { return false }
        if stopped { return true }
        for position in 0..<originalToOnes.count {
            let original = originalToOnes[position]
            guard toOneValues.indices.contains(original.slot), toOneValues[original.slot] !== original.value else { continue }
            guard let relationship = layout.relationships.first(where: { !$0.isToMany && $0.slotIndex == original.slot })
            else { return false }
            guard visit(relationship.name) else { return true }
        }
        for relationship in layout.relationships where relationship.isToMany {
            guard toManyValues.indices.contains(relationship.slotIndex),
                let storage = toManyValues[relationship.slotIndex]
            else { continue }
            let committed = storage.committed ?? []
            if storage.objects.count != committed.count || zip(storage.objects, committed).contains(where: { $0 !== $1 }) {
                guard visit(relationship.name) else { return true }
            }
        }
        return true
    }
}
