import Foundation

/// What one save wrote: the IDs of the objects it inserted (permanent IDs), updated and deleted.
/// Pass it to ``ManagedObjectContext/mergeChanges(_:)`` of other contexts on the same store so they
/// stop showing stale values; it is `Sendable`, so it may cross tasks.
///
/// A save lists the objects it wrote; their IDs, and the sets, are made when first read (most saves'
/// changes are never read: hashing every ID of a large save cost a tenth of the save, and copying every
/// ID out of its object a few percent).
public struct SaveChanges: Sendable, Hashable {
    private var storage: Storage

    /// Creates a change set.
    public init(inserted: Set<ManagedObjectID> = [], updated: Set<ManagedObjectID> = [], deleted: Set<ManagedObjectID> = []) {
        storage = Storage(sets: IDSets(inserted: inserted, updated: updated, deleted: deleted))
    }

    /// The changes of a save, as lists of distinct IDs.
    init(inserted: [ManagedObjectID], updated: [ManagedObjectID], deleted: [ManagedObjectID]) {
        storage = Storage(lists: IDLists(inserted: .ids(inserted), updated: .ids(updated), deleted: .ids(deleted)))
    }

    /// The changes of a save, as lists of distinct objects whose IDs are permanent and final (a save's
    /// inserted, updated and deleted objects once it has finished).
    init(insertedObjects: [ManagedObject], updatedObjects: [ManagedObject], deletedObjects: [ManagedObject]) {
        storage = Storage(
            lists: IDLists(
                inserted: .objects(insertedObjects), updated: .objects(updatedObjects), deleted: .objects(deletedObjects)))
    }

    /// The objects the save inserted.
    public var inserted: Set<ManagedObjectID> {
        get { storage.sets.inserted }
        set { change { $0.inserted = newValue } }
    }

    /// The objects the save updated.
    public var updated: Set<ManagedObjectID> {
        get { storage.sets.updated }
        set { change { $0.updated = newValue } }
    }

    /// The objects the save deleted.
    public var deleted: Set<ManagedObjectID> {
        get { storage.sets.deleted }
        set { change { $0.deleted = newValue } }
    }

    /// Whether the save wrote nothing.
    public var isEmpty: Bool { storage.isEmpty }

    /// The updated and deleted IDs, without building sets.
    var updatedAndDeleted: (updated: [ManagedObjectID], deleted: [ManagedObjectID]) { storage.updatedAndDeleted }

    /// The inserted, updated and deleted IDs, without building sets.
    var lists: (inserted: [ManagedObjectID], updated: [ManagedObjectID], deleted: [ManagedObjectID]) { storage.idLists }

    private mutating func change(_ body: (inout IDSets) -> Void) {
        var sets = storage.sets
        body(&sets)
        storage = Storage(sets: sets)
    }

    /// Whether the two hold the same IDs.
    public static func == (left: SaveChanges, right: SaveChanges) -> Bool { left.storage.sets == right.storage.sets }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(storage.sets) }

    private struct IDLists {
        var inserted: IDList
        var updated: IDList
        var deleted: IDList
    }

    /// IDs, or the objects they are read from. An object's ID changes only when the save that inserts
    /// it finishes, so reading it later, from any thread, reads a value no one writes any more.
    private enum IDList {
        case ids([ManagedObjectID])
        case objects([ManagedObject])

        var ids: [ManagedObjectID] {
            switch self {
            case .ids(let ids): ids
            case .objects(let objects): objects.map(\.objectID)
            }
        }

        var isEmpty: Bool {
            switch self {
            case .ids(let ids): ids.isEmpty
            case .objects(let objects): objects.isEmpty
            }
        }
    }

    private struct IDSets: Hashable {
        var inserted: Set<ManagedObjectID>
        var updated: Set<ManagedObjectID>
        var deleted: Set<ManagedObjectID>
    }

    /// The lists of a save until the sets are first read; never changed afterwards except for building
    /// the sets once, under its lock, so sharing it across tasks is safe.
    private final class Storage: @unchecked Sendable {
        /// Whether it holds no ID (known from the start).
        let isEmpty: Bool
        private let lock = NSLock()
        private var lists: IDLists?
        private var built: IDSets?

        init(lists: IDLists) {
            self.lists = lists
            isEmpty = lists.inserted.isEmpty && lists.updated.isEmpty && lists.deleted.isEmpty
        }

        init(sets: IDSets) {
            built = sets
            isEmpty = sets.inserted.isEmpty && sets.updated.isEmpty && sets.deleted.isEmpty
        }

        var sets: IDSets {
            lock.withLock {
                if let built { return built }
                let sets = IDSets(
                    inserted: Set(lists?.inserted.ids ?? []), updated: Set(lists?.updated.ids ?? []),
                    deleted: Set(lists?.deleted.ids ?? []))
                built = sets
                lists = nil
                return sets
            }
        }

        var idLists: (inserted: [ManagedObjectID], updated: [ManagedObjectID], deleted: [ManagedObjectID]) {
            lock.withLock {
                if let built { return (Array(built.inserted), Array(built.updated), Array(built.deleted)) }
                guard let listed = lists else { return ([], [], []) }
                let ids = IDLists(
                    inserted: .ids(listed.inserted.ids), updated: .ids(listed.updated.ids),
                    deleted: .ids(listed.deleted.ids))
                lists = ids
                return (ids.inserted.ids, ids.updated.ids, ids.deleted.ids)
            }
        }

        var updatedAndDeleted: (updated: [ManagedObjectID], deleted: [ManagedObjectID]) {
            lock.withLock {
                if let built { return (Array(built.updated), Array(built.deleted)) }
                guard let listed = lists else { return ([], []) }
                // Read once, then kept as IDs: the objects need not outlive the first read.
                let ids = IDLists(
                    inserted: .ids(listed.inserted.ids), updated: .ids(listed.updated.ids),
                    deleted: .ids(listed.deleted.ids))
                lists = ids
                return (ids.updated.ids, ids.deleted.ids)
            }
        }
    }
}

extension ManagedObjectContext {
    /// Brings this context up to date with another context's save (or a batch request's result, or
    /// any list of IDs written elsewhere): updated objects reload their saved values (keeping this
    /// context's unsaved changes on top), deleted objects leave the context (one with unsaved changes
    /// here is deleted here instead, as Core Data's merge does: a pending delete whose save deletes
    /// nothing), and to-many relationships without unsaved changes load their members again when next
    /// used.
    ///
    /// Afterwards it posts ``didChangeObjectsNotification`` (the updated objects held here as
    /// refreshed, the deleted ones as invalidated, or as deleted when they had unsaved changes, marked
    /// ``NotificationKey/changedByMerge``) and ``didMergeChangesObjectIDsNotification``, and
    /// fetched-results controllers on the context report the changes (inserted IDs are evaluated
    /// against their requests).
    public func mergeChanges(_ changes: SaveChanges) {
        guard !changes.isEmpty else { return }
        let (inserted, updated, deleted) = changes.lists
        var change = ObjectsDidChange()
        change.isMerge = true
        for id in updated {
            guard let object = registered[id] else { continue }
            if object.isLoaded {
                if object.hasChanges {
                    try? reloadKeepingChanges(object)
                } else {
                    object.turnIntoFault()
                }
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
            change.invalidated.insert(object)
            unregister(object)
            processedStates[ObjectIdentifier(object)] = nil
        }
        change.mergedInsertedIDs = inserted.filter { registered[$0] == nil || registered[$0]?.isInserted == false }
        // Inserts and deletes change the members of relationships this context may have loaded.
        for object in registered.values where object.isLoaded {
            for index in object.toManyValues.indices where object.toManyValues[index]?.isChanged == false {
                object.toManyValues[index] = nil
            }
        }
        announce(change)
    }

    /// Merges the same changes into several contexts, as Core Data's
    /// `mergeChanges(fromRemoteContextSave:into:)` does: the way to apply what a save of another
    /// coordinator, another process or a batch request wrote (give its object IDs as `changes`).
    public static func mergeChanges(fromRemoteContextSave changes: SaveChanges, into contexts: [ManagedObjectContext]) {
        for context in contexts { context.mergeChanges(changes) }
    }
}
