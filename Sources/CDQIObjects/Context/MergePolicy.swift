/// What a save does when an object it changed was changed in the store since the context read it
/// (optimistic locking through `Z_OPT`). Core Data's policies:
public enum MergePolicy: Sendable, Hashable, CaseIterable {
    /// Refuse the save with ``ContextError/mergeConflicts(_:)`` listing every conflict (the default).
    case error
    /// Property by property, the store's changes win over the context's; the context's other changes
    /// are saved.
    case mergeByPropertyStoreTrump
    /// Property by property, the context's changes win; the store's changes to properties the context
    /// did not change are kept.
    case mergeByPropertyObjectTrump
    /// The context's version of each conflicting object replaces the store's entirely.
    case overwrite
    /// The context's changes to each conflicting object are dropped; the object takes the store's values.
    case rollback
}

/// An object whose row changed in the store since the context read it.
public struct MergeConflict: Sendable, Hashable, CustomStringConvertible {
    /// The object.
    public var objectID: ManagedObjectID
    /// The row version (`Z_OPT`) the context read.
    public var snapshotVersion: Int64
    /// The row version in the store now, or 0 when the row was deleted.
    public var storeVersion: Int64

    /// A sentence describing the value.
    public var description: String {
        storeVersion == 0
            ? "\(objectID.entityName) \(objectID.uriString) was deleted from the store since it was read (version \(snapshotVersion))"
            : "\(objectID.entityName) \(objectID.uriString) changed in the store since it was read (version \(snapshotVersion), now \(storeVersion))"
    }
}
