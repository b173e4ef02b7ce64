/// One event of a context, as ``ManagedObjectContext/changes`` delivers it (the `Sendable` twins of the
/// context's notifications).
public enum ContextChange: Sendable, Hashable {
    /// A processing of pending changes found these changes (``ManagedObjectContext/didChangeObjectsNotification``).
    case objectsDidChange(ObjectIDChanges)
    /// A save is about to write (``ManagedObjectContext/willSaveObjectsNotification``).
    case willSave
    /// A save wrote these changes (``ManagedObjectContext/didSaveObjectsNotification``).
    case didSave(SaveChanges)
    /// A merge of changes from elsewhere changed these objects
    /// (``ManagedObjectContext/didMergeChangesObjectIDsNotification``).
    case didMerge(ObjectIDChanges)
}

/// A save that reached a store, as ``PersistentStoreCoordinator/saves`` delivers it.
public struct StoreSave: Sendable, Hashable {
    /// Where the save came from.
    public enum Origin: Sendable, Hashable {
        /// A context of this coordinator saved.
        case context
        /// Another process or another coordinator wrote the store file (detected through
        /// `PRAGMA data_version`; see ``ManagedObjectContext/refreshIfStoreChanged()``).
        case external
    }

    /// The IDs written. For an external write: see ``ManagedObjectContext/refreshIfStoreChanged()`` for
    /// what can be known.
    public var changes: SaveChanges
    /// Where it came from.
    public var origin: Origin

    /// Creates a save record.
    public init(changes: SaveChanges, origin: Origin) {
        self.changes = changes
        self.origin = origin
    }
}
