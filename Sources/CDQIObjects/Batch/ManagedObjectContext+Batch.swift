import CDQIPredicate

extension ManagedObjectContext {
    /// Deletes in the store every object `request` matches, without loading them, in one transaction
    /// (`BEGIN IMMEDIATE`, as ``save()``): one `DELETE` on the entity's table (with a `Z_ENT` range when the
    /// table holds other entities too), the predicate compiled as fetches compile it.
    ///
    /// **Delete rules**, applied in SQL as Core Data does since iOS 13 (temporary triggers, see
    /// `coredata-changes.md` §3.2): Cascade deletes the destinations, recursively; Nullify clears the
    /// destinations' inverse foreign keys (their `Z_OPT` grows by one) and removes join-table rows; a
    /// nullify that would leave a destination without its mandatory inverse throws
    /// ``BatchError/mandatoryInverse(entity:relationship:)``; a Deny relationship that still has
    /// destinations throws ``BatchError/deleteDenied(entity:relationship:)`` (Core Data refuses a batch
    /// delete of any entity with a Deny rule; we refuse only when the rule would). No Action leaves
    /// references as they are, but join-table rows of a deleted row are always removed. A refusal
    /// deletes nothing.
    ///
    /// **Contexts.** Unlike Core Data (where the caller merges the result), the deleted and changed rows
    /// are merged at once into this context and posted to the contexts following the coordinator (see
    /// ``automaticallyMergesChangesFromParent``): a registered object whose row was deleted leaves the
    /// context and becomes an invalidated fault (using it throws
    /// ``ManagedObjectError/faultNotFulfilled(objectID:)``); an unchanged object whose row a nullify changed
    /// turns into a fault and reads the new values when next used. A registered object with unsaved
    /// changes whose row was deleted is deleted here (as Core Data's merge does): it becomes a pending
    /// delete, fetched-results controllers report its deletion, and its next save deletes nothing. One
    /// with unsaved changes whose row was changed keeps them; its next save meets the newer row and
    /// ``mergePolicy`` decides. Pending changes of
    /// this context are not part of the request (as in Core Data, it reads the store only).
    ///
    /// - Returns: per ``BatchDeleteRequest/resultType``: `.status(true)`, the number of rows the
    ///   request matched, or their IDs (rows removed by a cascade are merged but not returned).
    public func execute(_ request: BatchDeleteRequest) throws(BatchError) -> BatchResult {
        let fetch = request.fetchRequest
        guard entityLayout(named: fetch.entityName) != nil else { throw .unknownEntity(fetch.entityName) }
        let builder = BatchStatementBuilder(
            model: coordinator.model, schema: coordinator.layout.schema, storeIdentifier: coordinator.storeIdentifier,
            dialect: coordinator.store.dialect)
        let table: String, statement: SQLFragment
        let needsRows = needsRows(request.resultType)
        do {
            (table, statement) = try builder.delete(fetch, returning: needsRows)
        } catch {
            throw .predicate(error)
        }
        let rules = try BatchDeleteRules(
            model: coordinator.model, schema: coordinator.layout.schema, rootTable: table, notesRows: needsRows)
        let written = try runBatch(statement, request: fetch, deleteRules: rules)
        return finishBatch(written, resultType: request.resultType, matchedAreDeleted: true)
    }

    /// Sets attributes of every object `request` matches in the store, without loading them, in one
    /// `UPDATE` (in a `BEGIN IMMEDIATE` transaction, as ``save()``) that also adds one to each row's
    /// version (`Z_OPT`), so optimistic locking sees the change. No validation runs (as in Core Data).
    ///
    /// The changed objects are merged at once into this context and posted to the contexts following the
    /// coordinator: a registered object without unsaved changes turns into a fault and reads the new
    /// values when next used; one with unsaved changes keeps them, and its next save meets the newer row
    /// (``mergePolicy`` decides).
    ///
    /// - Returns: per ``BatchUpdateRequest/resultType``: `.status(true)`, the number of rows changed, or
    ///   their IDs.
    public func execute(_ request: BatchUpdateRequest) throws(BatchError) -> BatchResult {
        let builder = BatchStatementBuilder(
            model: coordinator.model, schema: coordinator.layout.schema, storeIdentifier: coordinator.storeIdentifier,
            dialect: coordinator.store.dialect)
        let statement = try builder.update(request, returning: needsRows(request.resultType))
        let written = try runBatch(statement, request: nil, deleteRules: nil)
        return finishBatch(written, resultType: request.resultType, matchedAreDeleted: false)
    }

    /// Whether the rows a batch statement writes must be read back: for an `.objectIDs` result, or to
    /// merge them into this context (when it holds objects) or the contexts following the coordinator,
    /// or to tell the subscribers of ``PersistentStoreCoordinator/saves`` (live queries) what changed.
    /// Otherwise the statement returns nothing (reading back every row is most of a batch's cost
    /// beyond SQLite's own).
    private func needsRows(_ resultType: BatchResultType) -> Bool {
        resultType == .objectIDs || registered.count > 0 || coordinator.hasFollowers || coordinator.saveStreams.hasSubscribers
    }

    /// Runs a batch in one write transaction on the coordinator's store, with its errors typed.
    private func runBatch(
        _ statement: SQLFragment, request: FetchRequest?, deleteRules: BatchDeleteRules?
    ) throws(BatchError) -> BatchWriter.Written {
        do {
            return try coordinator.store.runBatch(statement, request: request, deleteRules: deleteRules)
        } catch let error as BatchError {
            throw error
        } catch let error as PredicateSQLError {
            throw .predicate(error)
        } catch {
            throw .store(.fromStore(error, path: coordinator.store.location))
        }
    }

    /// Merges what a batch wrote here and into the following contexts, and builds the result.
    private func finishBatch(_ written: BatchWriter.Written, resultType: BatchResultType, matchedAreDeleted: Bool) -> BatchResult {
        let layout = coordinator.layout
        let store = coordinator.storeNumber
        func ids(_ rows: [BatchWriter.Row]) -> [ManagedObjectID] {
            rows.compactMap { row in
                layout.entity(number: row.entity).map { ManagedObjectID(entity: handle(for: $0), store: store, primaryKey: row.key) }
            }
        }
        let matched = ids(written.matched)
        var updatedRows = written.alsoUpdated
        if !updatedRows.isEmpty {
            // A row changed by a nullify and then deleted (by a cascade) is deleted. The rows changed are
            // few (the destinations of the deleted rows): the deleted ones are looked up among them.
            var changed = Set(updatedRows)
            for row in written.alsoDeleted { changed.remove(row) }
            if matchedAreDeleted { for row in written.matched { changed.remove(row) } }
            updatedRows = updatedRows.filter { changed.contains($0) }
        }
        // A row may be both returned by the statement and noted by a cascade (a tree in one table):
        // merging it twice does nothing more.
        let deleted = (matchedAreDeleted ? matched : []) + ids(written.alsoDeleted)
        let updated = (matchedAreDeleted ? [] : matched) + ids(updatedRows)
        mergeStoreChanges(updated: updated, deleted: deleted)
        if !(updated.isEmpty && deleted.isEmpty) {
            coordinator.broadcast(SaveChanges(inserted: [], updated: updated, deleted: deleted), from: mergeInbox)
        }
        switch resultType {
        case .statusOnly: return .status(true)
        case .count: return .count(written.matchedCount)
        case .objectIDs: return .objectIDs(matched)
        }
    }
}
