import Foundation

extension ManagedObjectContext {
    /// Posted on `NotificationCenter.default` (object: the context) by each processing of pending
    /// changes that found changes (``processPendingChanges()``: before a fetch, at the start of a save,
    /// after ``perform(_:)`` and ``performAndWait(_:)``, or when called) and by each merge. The user info
    /// holds `Set<ManagedObject>` under ``NotificationKey/insertedObjects``, ``NotificationKey/updatedObjects``,
    /// ``NotificationKey/deletedObjects``, ``NotificationKey/refreshedObjects``,
    /// ``NotificationKey/invalidatedObjects`` (each present only when not empty), `true` under
    /// ``NotificationKey/invalidatedAllObjects`` after ``reset()``, and `true` under
    /// ``NotificationKey/changedByMerge`` for a merge. Core Data's name.
    public static let didChangeObjectsNotification = Notification.Name("NSManagedObjectContextObjectsDidChangeNotification")
    /// Posted (object: the context, no user info) when a save with changes is about to write, after the
    /// last processing of pending changes. Core Data's name.
    public static let willSaveObjectsNotification = Notification.Name("NSManagedObjectContextWillSaveNotification")
    /// Posted (object: the context) after a save wrote changes: `Set<ManagedObject>` under
    /// ``NotificationKey/insertedObjects``, ``NotificationKey/updatedObjects``, ``NotificationKey/deletedObjects``
    /// (always present), and the save's ``SaveChanges`` (its IDs, `Sendable`) under
    /// ``NotificationKey/saveChanges``. Core Data's name.
    public static let didSaveObjectsNotification = Notification.Name("NSManagedObjectContextDidSaveNotification")
    /// Posted (object: the context) after a merge of changes from elsewhere changed registered objects:
    /// `Set<ManagedObjectID>` under the `…ObjectIDs` keys. Core Data's name.
    public static let didMergeChangesObjectIDsNotification = Notification.Name(
        "NSManagedObjectContextDidMergeChangesObjectIDsNotification")

    /// The user-info keys of the context notifications, with Core Data's string values.
    public enum NotificationKey: String, Sendable {
        /// `Set<ManagedObject>`: inserted objects.
        case insertedObjects = "inserted"
        /// `Set<ManagedObject>`: updated objects.
        case updatedObjects = "updated"
        /// `Set<ManagedObject>`: deleted objects.
        case deletedObjects = "deleted"
        /// `Set<ManagedObject>`: refreshed objects.
        case refreshedObjects = "refreshed"
        /// `Set<ManagedObject>`: invalidated objects.
        case invalidatedObjects = "invalidated"
        /// `Bool`: every object was invalidated.
        case invalidatedAllObjects = "invalidatedAll"
        /// `Set<ManagedObjectID>`: inserted objects' IDs.
        case insertedObjectIDs = "inserted_objectIDs"
        /// `Set<ManagedObjectID>`: updated objects' IDs.
        case updatedObjectIDs = "updated_objectIDs"
        /// `Set<ManagedObjectID>`: deleted objects' IDs.
        case deletedObjectIDs = "deleted_objectIDs"
        /// `Set<ManagedObjectID>`: refreshed objects' IDs.
        case refreshedObjectIDs = "refreshed_objectIDs"
        /// `Set<ManagedObjectID>`: invalidated objects' IDs.
        case invalidatedObjectIDs = "invalidated_objectIDs"
        /// `Bool`: the changes come from a merge (Core Data's private `NSObjectsChangedByMergeChangesKey`).
        case changedByMerge = "NSObjectsChangedByMergeChangesKey"
        /// ``SaveChanges``: what a save wrote (ours; Core Data has no such key).
        case saveChanges = "CDQISaveChanges"
    }

    /// Every event of this context from now on, as `Sendable` values: processed changes, will-save,
    /// did-save and merges, in the order they happen. The sequence ends when its task is cancelled or
    /// the context goes away.
    ///
    /// ```swift
    /// for await change in context.changes {
    ///     if case .didSave(let saved) = change { print(saved.inserted.count) }
    /// }
    /// ```
    public var changes: AsyncStream<ContextChange> { changeStreams.subscribe() }

    /// Tells the observers and posts: objects did change.
    func announce(_ change: ObjectsDidChange) {
        guard !change.isEmpty else { return }
        for observer in changeObservers.compactMap(\.observer) { observer.context(self, didChange: change) }
        var info = Self.userInfo()
        func put(_ key: NotificationKey, _ objects: Set<ManagedObject>) {
            if !objects.isEmpty { info[key.rawValue] = objects }
        }
        put(.insertedObjects, change.inserted)
        put(.updatedObjects, change.updated)
        put(.deletedObjects, change.deleted)
        put(.refreshedObjects, change.refreshed)
        put(.invalidatedObjects, change.invalidated)
        if change.invalidatedAll { info[NotificationKey.invalidatedAllObjects.rawValue] = true }
        if change.isMerge { info[NotificationKey.changedByMerge.rawValue] = true }
        NotificationCenter.default.post(name: Self.didChangeObjectsNotification, object: self, userInfo: info)
        if change.isMerge {
            let ids = change.objectIDs
            NotificationCenter.default.post(
                name: Self.didMergeChangesObjectIDsNotification, object: self,
                userInfo: [
                    NotificationKey.insertedObjectIDs.rawValue: ids.inserted,
                    NotificationKey.updatedObjectIDs.rawValue: ids.updated,
                    NotificationKey.deletedObjectIDs.rawValue: ids.deleted,
                    NotificationKey.refreshedObjectIDs.rawValue: ids.refreshed,
                    NotificationKey.invalidatedObjectIDs.rawValue: ids.invalidated,
                ])
            if changeStreams.hasSubscribers { changeStreams.yield(.didMerge(ids)) }
        } else if changeStreams.hasSubscribers {
            changeStreams.yield(.objectsDidChange(change.objectIDs))
        }
    }

    /// An empty user info with room to spare: its keys are `AnyHashable` strings, which compare slowly
    /// when two land in the same bucket, and a table a quarter full makes that rare (every save posts
    /// two of these).
    private static func userInfo() -> [AnyHashable: Any] { Dictionary(minimumCapacity: 16) }

    func announceWillSave() {
        NotificationCenter.default.post(name: Self.willSaveObjectsNotification, object: self, userInfo: nil)
        if changeStreams.hasSubscribers { changeStreams.yield(.willSave) }
    }

    /// `posted`: the sets the save's processing of pending changes posted, reused when they hold the
    /// same objects.
    func announceDidSave(
        _ changes: SaveChanges, inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject],
        posted: PostedObjectSets
    ) {
        var info = Self.userInfo()
        info[NotificationKey.insertedObjects.rawValue] = PostedObjectSets.set(of: inserted, reusing: posted.inserted)
        info[NotificationKey.updatedObjects.rawValue] = PostedObjectSets.set(of: updated, reusing: posted.updated)
        info[NotificationKey.deletedObjects.rawValue] = Set(presized: deleted)
        info[NotificationKey.saveChanges.rawValue] = changes
        NotificationCenter.default.post(name: Self.didSaveObjectsNotification, object: self, userInfo: info)
        if changeStreams.hasSubscribers { changeStreams.yield(.didSave(changes)) }
        for observer in changeObservers.compactMap(\.observer) { observer.context(self, didSave: changes) }
    }
}

/// Code of the context's owner told about its changes directly (the fetched-results controller),
/// before the notifications are posted.
protocol ContextChangeObserver: AnyObject {
    func context(_ context: ManagedObjectContext, didChange change: ObjectsDidChange)
    func context(_ context: ManagedObjectContext, didSave changes: SaveChanges)
}

/// An observer the context does not keep alive.
struct WeakChangeObserver {
    weak var observer: (any ContextChangeObserver)?
}

extension ManagedObjectContext {
    func addChangeObserver(_ observer: any ContextChangeObserver) {
        changeObservers.removeAll { $0.observer == nil || $0.observer === observer }
        changeObservers.append(WeakChangeObserver(observer: observer))
    }

    func removeChangeObserver(_ observer: any ContextChangeObserver) {
        changeObservers.removeAll { $0.observer == nil || $0.observer === observer }
    }
}
