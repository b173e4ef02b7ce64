import CDQIPredicate

extension ManagedObjectContext {
    /// Writes every pending change to the store in one `BEGIN IMMEDIATE` transaction.
    ///
    /// In order: validation of every inserted and updated object and of deletions (all failures are
    /// collected), uniqueness constraints against the store and the other pending objects, optimistic
    /// locking (`Z_OPT`) resolved by ``mergePolicy``, then primary keys from `Z_PRIMARYKEY.Z_MAX`, row
    /// inserts (`Z_OPT` 1), updates (`… Z_OPT = n+1 WHERE Z_PK = ? AND Z_OPT = n`), deletes, join-table
    /// rows and `Z_FOK_` order keys (2048, 3072, …). Afterwards inserted objects have permanent IDs.
    ///
    /// Objects get ``ManagedObject/willSave()`` first (their changes there are saved too) and
    /// ``ManagedObject/didSave()`` after the commit.
    ///
    /// - Returns: the IDs of the objects inserted (permanent IDs), updated and deleted, for
    ///   ``mergeChanges(_:)`` in other contexts.
    /// - Throws: ``ContextError/validation(_:)`` with every failure, ``ContextError/mergeConflicts(_:)``,
    ///   or a store error. A failed save writes nothing and leaves the context exactly as it was.
    @discardableResult
    public func save() throws(ContextError) -> SaveChanges {
        let posted = processPendingChanges(recording: false)
        if touched.values.contains(where: \.hasChanges) { announceWillSave() }
        // A copy of the list: willSave may touch more objects (they are saved, not given willSave).
        touched.values.forEachUnretained { _, object in if object.hasChanges { object.willSave() } }
        var inserted: [ManagedObject] = [], deleted: [ManagedObject] = [], updated: [ManagedObject] = []
        // Room for every touched object in the lists most saves fill: no growing and copying as they fill.
        inserted.reserveCapacity(touched.values.count)
        updated.reserveCapacity(touched.values.count)
        var writesRelationshipRows = false
        // Whether each list is in order already (objects are mostly touched in that order): noted while
        // each object is at hand, so that sorting does not walk them all again.
        var insertedInOrder = true, deletedInOrder = true, updatedInOrder = true
        // Unretained: the list holds each object for the call (nothing here changes it).
        touched.values.forEachUnretained { _, object in
            switch (object.insertedFlag, object.deletedFlag) {
            case (true, false):
                if let last = inserted.last, last.insertionOrder > object.insertionOrder { insertedInOrder = false }
                inserted.append(object)
            case (false, true):
                if let last = deleted.last, !Self.savedOrder(last, object) { deletedInOrder = false }
                deleted.append(object)
            case (false, false):
                guard object.hasPersistentChanges else { return }
                if let last = updated.last, !Self.savedOrder(last, object) { updatedInOrder = false }
                updated.append(object)
            case (true, true): return
            }
            if object.entity.writesRelationshipRows && !object.deletedFlag { writesRelationshipRows = true }
        }
        if !insertedInOrder { inserted.sort { $0.insertionOrder < $1.insertionOrder } }
        if !deletedInOrder { deleted.sort(by: Self.savedOrder) }
        if !updatedInOrder { updated.sort(by: Self.savedOrder) }
        guard !(inserted.isEmpty && deleted.isEmpty && updated.isEmpty) else {
            touched.removeAll()
            forgetProcessedChanges()
            return SaveChanges()
        }
        var validation = SaveValidation()
        // Objects whose entity has uniqueness constraints, noted while validation has each object at hand
        // (a save of many objects walks more memory than the caches hold).
        var constrained: [ManagedObject] = []
        do {
            for objects in [inserted, updated] {
                try objects.forEachUnretained { (_, object) throws(ManagedObjectError) in
                    try validation.validate(object)
                    if !object.entity.uniquenessConstraints.isEmpty { constrained.append(object) }
                }
            }
            for object in deleted { try validation.validateDeletion(object) }
        } catch {
            throw .object(error)
        }
        validation.checkUniquenessAmongPending(constrained)
        let plan = SavePlan(
            inserted: inserted, updated: updated, deleted: deleted, constrained: constrained, policy: mergePolicy,
            writesRelationshipRows: writesRelationshipRows)
        let result: SaveResult
        // The writer hands each inserted object its new key; a failed save takes them back.
        var written = false
        var foreignWrite: ExternalWriteTracker.Entry?
        defer { if !written { for object in inserted { object.allocatedKey = nil } } }
        func write(checkingVersionsFirst: Bool) throws -> SaveResult {
            try coordinator.store.write { transaction in
                // Other processes' writes committed before this transaction are told apart from this
                // save's (only when someone tracks them, on a SQLite store).
                let sqlite = coordinator.externalWrites.isTracking ? transaction as? any ExternalWriteProbe : nil
                let tracking = sqlite != nil
                if tracking, let sqlite {
                    foreignWrite = try coordinator.externalWrites.poll(
                        sqlite, layout: coordinator.layout, store: coordinator.storeNumber)
                }
                var writer = SaveWriter(
                    context: self, transaction: transaction, schema: coordinator.layout, plan: plan,
                    validation: validation, checksVersionsFirst: checkingVersionsFirst)
                let result = try writer.run()
                if tracking, let sqlite { try coordinator.externalWrites.noteOwnWrite(sqlite, layout: coordinator.layout) }
                return result
            }
        }
        do {
            do {
                result = try write(checkingVersionsFirst: false)
            } catch is SaveWriter.StaleRow {
                result = try write(checkingVersionsFirst: true)
            }
        } catch let error as ContextError {
            throw error
        } catch {
            throw .store(.fromStore(error, path: coordinator.store.location))
        }
        written = true
        let changes = finish(plan, result)
        for objects in [inserted, updated, deleted] { objects.forEachUnretained { $1.didSave() } }
        forgetProcessedChanges()
        if let foreignWrite { coordinator.announceExternal(foreignWrite) }
        coordinator.broadcast(changes, from: mergeInbox)
        announceDidSave(changes, inserted: inserted, updated: updated, deleted: deleted, posted: posted)
        if !(result.merged.isEmpty && result.rolledBack.isEmpty) {
            // The merge policy put the store's values into these objects: they are refreshed.
            var refreshed = ObjectsDidChange()
            refreshed.isMerge = true
            for object in updated
            where result.merged[ObjectIdentifier(object)] != nil || result.rolledBack.contains(ObjectIdentifier(object)) {
                refreshed.refreshed.insert(object)
            }
            announce(refreshed)
        }
        return changes
    }

    private static func savedOrder(_ left: ManagedObject, _ right: ManagedObject) -> Bool {
        if left.entity !== right.entity && left.entity.name != right.entity.name { return left.entity.name < right.entity.name }
        return (left.objectID.primaryKey ?? 0) < (right.objectID.primaryKey ?? 0)
    }

    /// Brings the objects in line with what was written, and returns what the save wrote. One pass
    /// over each list: a save of many objects walks more memory than the caches hold.
    private func finish(_ plan: SavePlan, _ result: SaveResult) -> SaveChanges {
        let store = coordinator.storeNumber
        // Unretained: the plan's lists hold every object for the call (a retain and release per object).
        plan.inserted.forEachUnretained { _, object in
            if let key = object.allocatedKey {
                object.allocatedKey = nil
                registered[object.objectID] = nil
                object.objectID = ManagedObjectID(entity: object.entityHandle, store: store, primaryKey: key)
                // Looked up and registered by root and key, as fetched rows are: the new ID is one of
                // this store's, and reading it back out of the object copied it for every lookup.
                let root = object.entity.rootNumber
                // A fault made earlier for this key (from a URI naming a row that did not exist yet)
                // leaves the context: the new object is the key's object now.
                if let stale = registered.object(root: root, key: key), stale !== object { stale.detachFromContext() }
                registered.insert(object, root: root, key: key)
                object.insertedFlag = false
                object.takeSnapshot(version: 1)
            }
            commitToMany(of: object)
        }
        // Conflict resolution's outcomes are rare: looked up only when there are some.
        let resolvedConflicts = !(result.rolledBack.isEmpty && result.merged.isEmpty && result.versions.isEmpty)
        plan.updated.forEachUnretained { _, object in
            var version = (object.snapshotVersion ?? 0) + 1
            var merged: RowValues?
            if resolvedConflicts {
                let id = ObjectIdentifier(object)
                if result.rolledBack.contains(id) {
                    object.turnIntoFault()
                    return
                }
                merged = result.merged[id]
                version = result.versions[id] ?? version
            }
            if let merged {
                apply(merged, to: object, version: version)
            } else {
                object.takeSnapshot(version: version)
            }
            commitToMany(of: object)
        }
        for object in plan.deleted {
            object.deletedFlag = false
            unregister(object)
        }
        touched.removeAll()
        return SaveChanges(insertedObjects: plan.inserted, updatedObjects: plan.updated, deletedObjects: plan.deleted)
    }

    /// Puts the values a merge policy wrote into an updated object and makes them its snapshot at row
    /// version `version` (they are what the store holds now); the inverse to-many lists of the to-one
    /// destinations it changes are reloaded from the store when next used.
    private func apply(_ merged: RowValues, to object: ManagedObject, version: Int64) {
        // Slots written directly, not through the write paths that keep originals: the snapshot taken
        // at the end replaces whatever they would have kept.
        defer { object.takeSnapshot(version: version) }
        object.attributeValues = merged.attributes
        for relationship in object.entity.relationships where !relationship.isToMany {
            let target = self.object(referencedBy: merged.toOne[relationship.slotIndex])
            let current = object.toOneValues[relationship.slotIndex]
            guard target !== current else { continue }
            object.toOneValues[relationship.slotIndex] = target
            for destination in [current, target].compactMap({ $0 }) where destination.isLoaded {
                if let inverse = object.inverse(of: relationship, on: destination), inverse.isToMany {
                    destination.toManyValues[inverse.slotIndex] = nil
                }
            }
        }
    }

    /// Makes a written object's loaded to-many members its committed ones.
    private func commitToMany(of object: ManagedObject) {
        for slot in object.toManyValues.indices {
            if var storage = object.toManyValues[slot] {
                storage.committed = storage.objects
                object.toManyValues[slot] = storage
            }
        }
    }
}

/// What a save has to write.
struct SavePlan {
    var inserted: [ManagedObject]
    var updated: [ManagedObject]
    var deleted: [ManagedObject]
    /// The inserted and updated objects whose entity has uniqueness constraints.
    var constrained: [ManagedObject]
    var policy: MergePolicy
    /// Whether an inserted or updated object's entity has join tables or ordered relationships (else
    /// there are no join-table rows or order keys to write).
    var writesRelationshipRows: Bool
}

/// What a save wrote, for updating the objects after the commit.
struct SaveResult {
    var versions: [ObjectIdentifier: Int64] = [:]
    var merged: [ObjectIdentifier: RowValues] = [:]
    var rolledBack: Set<ObjectIdentifier> = []
}

/// The stored values of a row: attributes, and to-one destinations as (primary key, entity number).
struct RowValues {
    var attributes: [StoredValue]
    var toOne: [(key: Int64, entityNumber: Int)?]
}
