import Foundation

extension ManagedObjectContext {
    /// Posted (object: the context) by ``refreshIfStoreChanged()`` when it found writes made to the
    /// store file by another process or coordinator: `Set<ManagedObjectID>` under
    /// ``NotificationKey/insertedObjectIDs``, ``NotificationKey/updatedObjectIDs`` and
    /// ``NotificationKey/deletedObjectIDs``, and the ``SaveChanges`` under ``NotificationKey/saveChanges``.
    /// Core Data's name for a save's IDs.
    public static let didSaveObjectIDsNotification = Notification.Name("NSManagedObjectContextDidSaveObjectIDsNotification")

    /// Brings the context up to date with writes made to the store file by other processes (or other
    /// coordinators) since it last looked, and returns what they changed, or `nil` when nothing was
    /// written. Saves of this coordinator's contexts are not included (``automaticallyMergesChangesFromParent``
    /// and ``mergeChanges(_:)`` handle those).
    ///
    /// **How.** The coordinator's writer connection reads `PRAGMA data_version`, which SQLite changes
    /// for every commit of any other connection and never for the connection's own. Tracking starts at
    /// the first call (or when a context starts following the coordinator): writes before that are not
    /// known. A context following the coordinator also looks at the start of each fetch, unless a save
    /// holds the writer at that moment (then the next fetch looks).
    ///
    /// **What can be known** (there is no history table to read):
    /// - *inserted*: every row inserted since tracking started, of every entity (rows whose `Z_PK` is
    ///   above the largest key of their table at the previous look);
    /// - *updated*: the objects registered here and loaded whose row's `Z_OPT` differs from the version
    ///   they were read at (every writer of a Core Data store bumps it);
    /// - *deleted*: the objects registered here whose row is gone.
    /// Updates and deletes of rows this context does not hold are not known, nor which properties
    /// changed.
    ///
    /// The changes are then merged as ``mergeChanges(_:)`` merges them (objects refreshed keeping
    /// their unsaved changes, deleted ones invalidated, fetched-results controllers told), and
    /// ``didSaveObjectIDsNotification`` is posted.
    @discardableResult
    public func refreshIfStoreChanged() throws -> SaveChanges? {
        try refreshFromStore(waiting: true)
    }

    func refreshFromStore(waiting: Bool) throws -> SaveChanges? {
        guard let (generation, inserted) = try coordinator.pollExternalWrites(since: externalGeneration, waiting: waiting)
        else { return nil }
        guard generation > externalGeneration else { return nil }
        externalGeneration = generation
        // Registered objects read at a version: does their row still have it?
        var byTable: [String: [(key: Int64, version: Int64, id: ManagedObjectID)]] = [:]
        for object in registered.values {
            guard let key = object.objectID.primaryKey, let version = object.snapshotVersion, object.isLoaded else { continue }
            byTable[object.entity.tableName, default: []].append((key, version, object.objectID))
        }
        var updated: [ManagedObjectID] = [], deleted: [ManagedObjectID] = []
        let store = try coordinator.capability((any ExternalWriteDetecting).self, for: "detecting other processes' writes")
        for (table, objects) in byTable {
            let versions = try store.committedVersions(table: table, keys: objects.map(\.key))
            for object in objects {
                switch versions[object.key] {
                case nil: deleted.append(object.id)
                case let version? where version != object.version: updated.append(object.id)
                default: break
                }
            }
        }
        let changes = SaveChanges(inserted: inserted, updated: updated, deleted: deleted)
        guard !changes.isEmpty else { return nil }
        mergeChanges(changes)
        NotificationCenter.default.post(
            name: Self.didSaveObjectIDsNotification, object: self,
            userInfo: [
                NotificationKey.insertedObjectIDs.rawValue: changes.inserted,
                NotificationKey.updatedObjectIDs.rawValue: changes.updated,
                NotificationKey.deletedObjectIDs.rawValue: changes.deleted,
                NotificationKey.saveChanges.rawValue: changes,
            ])
        return changes
    }
}
