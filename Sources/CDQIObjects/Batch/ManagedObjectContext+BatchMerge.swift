extension ManagedObjectContext {
    /// Brings this context in line with rows changed or deleted in the store by something other than
    /// its own save, a batch request (``execute(_:)-(BatchDeleteRequest)``), and tells its observers
    /// (``didChangeObjectsNotification``, marked as a merge; fetched-results controllers).
    ///
    /// The same rules as a merge of another context's save (``processPendingMerges()``): a loaded
    /// object without unsaved changes whose row was `updated` turns into a fault (its next use reads the
    /// row); a registered object without unsaved changes whose row was `deleted` leaves the registry and
    /// becomes an invalidated fault (using it throws ``ManagedObjectError/faultNotFulfilled(objectID:)``);
    /// an object with unsaved changes whose row was `deleted` is deleted here (a pending delete, reported
    /// as deleted; its save deletes nothing); an object with unsaved changes whose row was `updated` is
    /// left as it is, so its next save meets the row's new version and ``mergePolicy`` decides. Loaded to-many relationships not changed here load their
    /// members again when next used.
    func mergeStoreChanges(updated: [ManagedObjectID], deleted: [ManagedObjectID]) {
        guard !(updated.isEmpty && deleted.isEmpty), registered.count > 0 else { return }
        var change = ObjectsDidChange()
        change.isMerge = true
        applyMergedRows(updated: updated, deleted: deleted, to: &change)
        forgetUnchangedToManyLists()
        // Observers (notifications, fetched-results controllers) hear of it as of any merge.
        announce(change)
    }
}
