// Where the objects an incremental application evaluates come from: the store as saved (a fresh
// context of the coordinator), or a context with its unsaved changes, as that context's fetches see it.
extension IncrementalResults {
    /// Fetches the plan's request on `context` (its unsaved changes included, as its fetches include
    /// them) and keeps the results; with `tracksUnsavedChanges`, remembers the context's objects with
    /// unsaved changes, which the next ``apply(touched:updated:in:)`` evaluates again.
    ///
    /// - Throws: what ``ManagedObjectContext/fetch(_:)`` throws, or reading a sort key.
    package static func fetch(
        _ plan: IncrementalResultsPlan, on context: ManagedObjectContext, tracksUnsavedChanges: Bool
    ) throws -> IncrementalResults {
        var request = plan.request
        request.returnsObjectsAsFaults = false
        var results = try IncrementalResults(plan: plan, objects: try context.fetch(request))
        if tracksUnsavedChanges { results.unsaved = Set(context.pendingObjects(for: plan.request).map(\.objectID)) }
        return results
    }

    /// Applies a change to results that show what the store holds: the touched objects are read from
    /// the store on a new context of `coordinator`. See ``apply(touched:updated:resolve:)``.
    package mutating func apply(
        touched: Set<ManagedObjectID>, updated: Set<ManagedObjectID>, storeOf coordinator: PersistentStoreCoordinator
    ) -> Outcome {
        let scratch = ManagedObjectContext(coordinator: coordinator)
        return apply(touched: touched, updated: updated) { id in try Self.stored(id, in: scratch) }
    }

    /// Applies a change to results that show `context` with its unsaved changes, as its fetch does: an
    /// object with unsaved changes is judged by its values in `context` (deleted ones are out), any
    /// other by the store's row. Besides `touched`, every object with unsaved changes now or at the last
    /// application is evaluated again, so edits whose notifications have not arrived yet are seen.
    package mutating func apply(
        touched: Set<ManagedObjectID>, updated: Set<ManagedObjectID>, in context: ManagedObjectContext
    ) -> Outcome {
        // What the context's fetch does first.
        context.processPendingMerges()
        context.processPendingChanges()
        let pendingNow = Set(context.pendingObjects(for: plan.request).map(\.objectID))
        let candidates = touched.union(pendingNow).union(unsaved)
        var scratch: ManagedObjectContext?
        let outcome = apply(touched: candidates, updated: updated) { id in
            if let object = context.registeredObject(for: id), object.hasChanges { return object }
            let store = scratch ?? ManagedObjectContext(coordinator: context.coordinator)
            scratch = store
            return try Self.stored(id, in: store)
        }
        if case .refetch = outcome { return outcome }
        unsaved = pendingNow
        return outcome
    }

    /// The object's saved row, or `nil` when the store has none.
    private static func stored(_ id: ManagedObjectID, in context: ManagedObjectContext) throws -> ManagedObject? {
        do {
            return try context.existingObject(with: id)
        } catch .objectNotFound {
            return nil
        }
    }
}
