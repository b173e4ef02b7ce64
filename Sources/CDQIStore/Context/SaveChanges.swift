/// What one save wrote: the IDs of the objects it inserted (permanent IDs), updated and deleted.
/// Pass it to ``ManagedObjectContext/mergeChanges(_:)`` of other contexts on the same store so they
/// stop showing stale values; it is `Sendable`, so it may cross tasks.
public struct SaveChanges: Sendable, Hashable {
    /// The objects the save inserted.
    public var inserted: Set<ManagedObjectID> = []
    /// The objects the save updated.
    public var updated: Set<ManagedObjectID> = []
    /// The objects the save deleted.
    public var deleted: Set<ManagedObjectID> = []

    /// Creates a change set.
    public init(inserted: Set<ManagedObjectID> = [], updated: Set<ManagedObjectID> = [], deleted: Set<ManagedObjectID> = []) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    /// Whether the save wrote nothing.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}

extension ManagedObjectContext {
    /// Brings this context up to date with another context's save: updated objects reload their
    /// saved values (keeping this context's unsaved changes on top), deleted objects leave the context
    /// unless they have unsaved changes here, and to-many relationships without unsaved changes load
    /// their members again when next used.
    public func mergeChanges(_ changes: SaveChanges) {
        guard !changes.isEmpty else { return }
        for id in changes.updated {
            guard let object = registered[id], object.isLoaded else { continue }
            if object.hasChanges {
                try? reloadKeepingChanges(object)
            } else {
                object.turnIntoFault()
            }
        }
        for id in changes.deleted {
            guard let object = registered[id], !object.hasChanges else { continue }
            unregister(object)
        }
        // Inserts and deletes change the members of relationships this context may have loaded.
        for object in registered.values where object.isLoaded {
            for index in object.toManyValues.indices where object.toManyValues[index]?.isChanged == false {
                object.toManyValues[index] = nil
            }
        }
    }
}
