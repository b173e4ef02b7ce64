extension ManagedObjectContext {
    /// Whether this context follows the saves other contexts make through its coordinator, as Core
    /// Data's `automaticallyMergesChangesFromParent` does for a context without a parent. Off by
    /// default (as in Core Data, the view context included).
    ///
    /// **What a merge does**, for each save of another context (never this context's own):
    /// - an object the save *updated* that this context holds loaded and unchanged becomes a fault: its
    ///   next use reads the saved values;
    /// - an object the save *deleted* that this context holds unchanged leaves the registry and becomes
    ///   an invalidated fault: using it throws ``ManagedObjectError/faultNotFulfilled(objectID:)`` (and
    ///   ``existingObject(with:)`` throws ``ContextError/objectNotFound(objectID:)``);
    /// - an object the save *updated* that has unsaved changes here is left as it is: its snapshot still
    ///   names the row version it was read at, so the next ``save()`` meets the newer row and
    ///   ``mergePolicy`` decides, exactly as without merging; if its changes are undone first, the next
    ///   processing of pending changes turns it into a fault (reported as refreshed), so that it reads
    ///   the newer row;
    /// - an object the save *deleted* that has unsaved changes here is deleted here, as Core Data's merge
    ///   does: it becomes a pending delete (``ManagedObject/isDeleted``, left out of fetches), observers
    ///   and fetched-results controllers hear of it as deleted, and its next save deletes nothing;
    /// - to-many relationships loaded here and not changed here load their members again when next used.
    ///
    /// Unlike ``mergeChanges(_:)`` (which reloads changed objects keeping their edits on top, so their
    /// next save does not conflict), an automatic merge never moves an edited object's snapshot: the
    /// merge policy always sees the conflict.
    ///
    /// **When it happens.** A context is confined to one task, so nothing reaches into it from another
    /// task. A save posts its changes to every following context before its `save()` returns; a
    /// following context merges everything posted so far at the start of its next ``perform(_:)``,
    /// ``performAndWait(_:)``, ``fetch(_:)``, ``fetchObjectIDs(_:)``, ``count(for:)``,
    /// ``fetchDictionaries(_:)``, ``cursor(for:)`` or ``processPendingMerges()``, and at no other time
    /// (reading a property of a loaded object never merges). So every save that returned before one of
    /// these calls began is merged by it. Changes made to the store file outside this coordinator
    /// (another process, another coordinator) are not posted.
    ///
    /// Posted saves wait in the context until it merges them: a following context kept but not used
    /// holds the updated and deleted IDs of every save since its last merge (shared with the other
    /// following contexts, not copied). Turning it off drops the saves posted and not merged yet; saves
    /// made while it is off are never merged.
    public var automaticallyMergesChangesFromParent: Bool {
        get { mergeInbox != nil }
        set {
            if newValue, mergeInbox == nil {
                let inbox = MergeInbox()
                mergeInbox = inbox
                coordinator.follow(inbox)
                // Writes by other processes are looked for from now on.
                if let (generation, _) = try? coordinator.pollExternalWrites(since: externalGeneration, waiting: true) {
                    externalGeneration = generation
                }
            } else if !newValue, let inbox = mergeInbox {
                coordinator.unfollow(inbox)
                mergeInbox = nil
            }
        }
    }

    /// Merges the saves of other contexts posted since the last merge (see
    /// ``automaticallyMergesChangesFromParent``), and writes of other processes to the store file (see
    /// ``refreshIfStoreChanged()``); does nothing when that is off or nothing was posted. Posts
    /// ``didChangeObjectsNotification`` (marked ``NotificationKey/changedByMerge``) and
    /// ``didMergeChangesObjectIDsNotification`` when registered objects changed.
    public func processPendingMerges() {
        guard let inbox = mergeInbox else { return }
        // Writes by other processes, unless a save holds the writer now (the next call looks again).
        _ = try? refreshFromStore(waiting: false)
        let saves = inbox.take()
        guard !saves.isEmpty else { return }
        var change = ObjectsDidChange()
        change.isMerge = true
        for save in saves {
            applyMergedRows(updated: save.updated, deleted: save.deleted, to: &change)
            change.mergedInsertedIDs.append(contentsOf: save.inserted)
        }
        forgetUnchangedToManyLists()
        announce(change)
    }
}

extension ManagedObjectContext {
    /// Brings the registered objects in line with rows others changed (`updated`) or removed (`deleted`):
    /// a loaded object without unsaved changes turns into a fault; an object without unsaved changes whose
    /// row is gone leaves the registry as an invalidated fault; an object with unsaved changes whose row
    /// is gone is deleted here (see ``markDeletedByMerge(_:in:)``); an updated object with unsaved
    /// changes is left to the next save's merge policy. What changed is added to `change` (refreshed,
    /// deleted, invalidated).
    func applyMergedRows(updated: [ManagedObjectID], deleted: [ManagedObjectID], to change: inout ObjectsDidChange) {
        for id in updated {
            guard let object = registered[id] else { continue }
            if object.isLoaded {
                guard !object.hasChanges else {
                    staleUnderChanges.append(object)
                    continue
                }
                object.turnIntoFault()
            }
            rebaseProcessedState(of: object)
            change.refreshed.insert(object)
        }
        for id in deleted {
            guard let object = registered[id] else { continue }
            if object.hasChanges {
                markDeletedByMerge(object, in: &change)
                continue
            }
            registered[id] = nil
            touched.remove(object)
            processedStates[ObjectIdentifier(object)] = nil
            object.turnIntoFault()
            invalidatedByMerge.append(object)
            change.refreshed.remove(object)
            change.invalidated.insert(object)
        }
    }

    /// Deletes here an object with unsaved changes whose row was deleted elsewhere, as Core Data's merges
    /// do (they call `delete(_:)` on it): its unsaved changes cannot be saved any more, so it becomes a
    /// pending delete (``ManagedObject/isDeleted``, left out of fetches) and is reported in `change`'s
    /// `deleted` set, so that fetched-results controllers drop it now. Its next ``save()`` deletes
    /// nothing (the row is gone) and is no conflict. Delete rules are not applied again in memory: the
    /// deleting save or batch applied them to the store. An object already deleted here is left as it is.
    ///
    /// Left registered and unchanged, it would keep its place in the results until its edits were
    /// undone, and then look like a saved object whose row does not exist (a fetch would drop it with
    /// no change reported).
    func markDeletedByMerge(_ object: ManagedObject, in change: inout ObjectsDidChange) {
        guard !object.deletedFlag, !object.insertedFlag else { return }
        object.deletedFlag = true
        touched.insert(object)
        change.refreshed.remove(object)
        change.deleted.insert(object)
        // Reported now: the next processing of pending changes must not report it again.
        processedStates[ObjectIdentifier(object)] = ProcessedObjectState(current: object, context: self)
    }

    /// Inserts, deletes and changed to-ones elsewhere change the members of relationships loaded here:
    /// lists without unsaved changes load again when next used.
    func forgetUnchangedToManyLists() {
        for object in registered.values where object.isLoaded {
            for index in object.toManyValues.indices where object.toManyValues[index]?.isChanged == false {
                object.toManyValues[index] = nil
            }
        }
    }
}
