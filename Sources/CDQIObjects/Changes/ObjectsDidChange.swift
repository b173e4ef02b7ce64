/// What one processing of a context's pending changes found (``ManagedObjectContext/processPendingChanges()``),
/// or what a merge changed: the payload of ``ManagedObjectContext/didChangeObjectsNotification``.
///
/// It holds the context's objects, so it stays with the context's owner; ``ObjectIDChanges`` is its
/// `Sendable` form.
public struct ObjectsDidChange {
    /// Objects inserted since the last processing (and still inserted).
    public internal(set) var inserted: Set<ManagedObject> = []
    /// Registered objects whose properties changed since the last processing.
    public internal(set) var updated: Set<ManagedObject> = []
    /// Objects deleted since the last processing.
    public internal(set) var deleted: Set<ManagedObject> = []
    /// Objects a merge brought up to date with the store (their unsaved changes kept).
    public internal(set) var refreshed: Set<ManagedObject> = []
    /// Objects a merge found deleted from the store: invalidated faults now.
    public internal(set) var invalidated: Set<ManagedObject> = []
    /// Whether every object of the context was invalidated (``ManagedObjectContext/reset()``).
    public internal(set) var invalidatedAll = false
    /// Whether a merge of changes from elsewhere made these changes.
    public internal(set) var isMerge = false
    /// IDs of objects a merge learned were inserted elsewhere (they are not registered here yet).
    var mergedInsertedIDs: [ManagedObjectID] = []
    /// For each updated object, the names of the properties that changed since the last processing
    /// (Core Data's `changedValuesForCurrentEvent()` keys).
    var changedKeys: [ObjectIdentifier: Set<String>] = [:]

    /// The names of the properties of `object` changed in this processing (empty unless it is in
    /// ``updated``).
    public func changedKeys(of object: ManagedObject) -> Set<String> {
        changedKeys[ObjectIdentifier(object)] ?? []
    }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        inserted.isEmpty && updated.isEmpty && deleted.isEmpty && refreshed.isEmpty && invalidated.isEmpty
            && !invalidatedAll && mergedInsertedIDs.isEmpty
    }

    /// The same changes as object IDs.
    public var objectIDs: ObjectIDChanges {
        ObjectIDChanges(
            inserted: Set(inserted.map(\.objectID)).union(mergedInsertedIDs), updated: Set(updated.map(\.objectID)),
            deleted: Set(deleted.map(\.objectID)), refreshed: Set(refreshed.map(\.objectID)),
            invalidated: Set(invalidated.map(\.objectID)), invalidatedAll: invalidatedAll)
    }
}

/// Changes to a context's objects as IDs: `Sendable`, safe to hand to other tasks. The payload of
/// ``ManagedObjectContext/didMergeChangesObjectIDsNotification`` and of ``ContextChange``.
public struct ObjectIDChanges: Sendable, Hashable {
    /// Inserted objects (temporary IDs for objects not saved yet).
    public var inserted: Set<ManagedObjectID>
    /// Updated objects.
    public var updated: Set<ManagedObjectID>
    /// Deleted objects.
    public var deleted: Set<ManagedObjectID>
    /// Objects refreshed from the store.
    public var refreshed: Set<ManagedObjectID>
    /// Objects invalidated (deleted elsewhere).
    public var invalidated: Set<ManagedObjectID>
    /// Whether every object was invalidated.
    public var invalidatedAll: Bool

    /// Creates a change set.
    public init(
        inserted: Set<ManagedObjectID> = [], updated: Set<ManagedObjectID> = [], deleted: Set<ManagedObjectID> = [],
        refreshed: Set<ManagedObjectID> = [], invalidated: Set<ManagedObjectID> = [], invalidatedAll: Bool = false
    ) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.refreshed = refreshed
        self.invalidated = invalidated
        self.invalidatedAll = invalidatedAll
    }
}
