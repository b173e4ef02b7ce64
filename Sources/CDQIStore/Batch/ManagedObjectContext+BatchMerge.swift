extension ManagedObjectContext {
    /// Brings this context in line with rows changed or deleted in the store by something other than
    /// its own save: a batch request (``execute(_:)-(BatchDeleteRequest)``), and later the merging of
    /// other writers' changes (notifications, fetched-results controllers can call into it).
    ///
    /// The same rules as a merge of another context's save (``processPendingMerges()``): a loaded
    /// object without unsaved changes whose row was `updated` turns into a fault (its next use reads the
    /// row); a registered object without unsaved changes whose row was `deleted` leaves the registry and
    /// becomes an invalidated fault (using it throws ``ManagedObjectError/faultNotFulfilled(objectID:)``);
    /// an object with unsaved changes is left as it is, so its next save meets the row's new version (or
    /// its absence) and ``mergePolicy`` decides. Loaded to-many relationships not changed here load their
    /// members again when next used.
    func mergeStoreChanges(updated: [ManagedObjectID], deleted: [ManagedObjectID]) {
        guard !(updated.isEmpty && deleted.isEmpty), registered.count > 0 else { return }
        for id in updated {
            guard let object = registered[id], object.isLoaded, !object.hasChanges else { continue }
            object.turnIntoFault()
        }
        for id in deleted {
            guard let object = registered[id], !object.hasChanges else { continue }
            registered[id] = nil
            touched.remove(object)
            object.turnIntoFault()
            invalidatedByMerge.append(object)
        }
        for object in registered.values where object.isLoaded {
            for index in object.toManyValues.indices where object.toManyValues[index]?.isChanged == false {
                object.toManyValues[index] = nil
            }
        }
    }
}
