import CDQIPredicate
import CDQIStore

// Batch writes through a typed query: the query's filters choose the rows, and the store changes them in
// one statement without loading them (`BatchDeleteRequest`, `BatchUpdateRequest`; see the Batch Writes
// article for delete rules, optimistic locking and what contexts see).
extension Query where M: ManagedObject {
    /// Deletes every object the query matches in the store, without loading them, in one transaction, with
    /// the model's delete rules applied (a ``BatchDeleteRequest`` of ``request()``): returns the number of
    /// objects the query matched (objects deleted by a cascade are not counted, as in Core Data).
    ///
    /// Filters, and a limit or offset with the orderings that choose the window, carry over. Deleted objects
    /// registered in the context become invalidated faults; contexts following the coordinator merge
    /// the deletion. Unsaved changes of the context are not part of it (the store is read, as Core Data does).
    ///
    /// ```swift
    /// let removed = try context.from(Employee.self).filter { $0.salary < 10_000 }.batchDelete()
    /// ```
    ///
    /// - Throws: ``QueryError/noContext(entity:)``, or ``QueryError/batchFailed(_:)`` with the
    ///   ``BatchError`` (a Deny rule with destinations, a mandatory inverse, a predicate SQL cannot express).
    @discardableResult
    public func batchDelete(managedObjectContext: ManagedObjectContext? = nil) throws(QueryError) -> Int {
        let context = try resolveContext(managedObjectContext)
        var batch = BatchDeleteRequest(fetchRequest: batchFetchRequest())
        batch.resultType = .count
        return try Self.count(of: Self.batch { () throws(BatchError) in try context.execute(batch) })
    }

    /// Sets attributes of every object the query matches in the store, without loading them, in one
    /// `UPDATE` that also bumps each row's version (`Z_OPT`, so optimistic locking still works): returns the
    /// number of objects changed. `assign` receives the entity's proxy and the ``BatchAssignments`` to fill.
    ///
    /// ```swift
    /// let raised = try context.from(Employee.self)
    ///     .filter { $0.department.name == "Engineering" && $0.salary < 100_000 }
    ///     .batchUpdate { employee, update in update.increase(employee.salary, by: 5_000) }
    /// ```
    ///
    /// Registered objects without unsaved changes read the new values when next used; contexts
    /// following the coordinator merge the change. No validation runs (as in Core Data).
    ///
    /// - Throws: ``QueryError/noContext(entity:)``; ``QueryError/batchFailed(_:)`` when nothing is set,
    ///   when the query has a limit or offset (an `UPDATE` has no window), or with the store's
    ///   ``BatchError`` (an attribute that is not stored, a value of the wrong type, …).
    @discardableResult
    public func batchUpdate(
        managedObjectContext: ManagedObjectContext? = nil, _ assign: (M.CDQIAttribute, inout BatchAssignments) -> Void
    ) throws(QueryError) -> Int {
        let context = try resolveContext(managedObjectContext)
        var assignments = BatchAssignments()
        assign(M.CDQIAttribute(), &assignments)
        guard !assignments.values.isEmpty else {
            throw .batchFailed(.unsupported("the batch update of '\(M.cdqiEntityName)' sets no attribute"))
        }
        guard limitCount == 0, offsetCount == 0 else {
            throw .batchFailed(.unsupported("a batch update has no limit or offset (query on '\(M.cdqiEntityName)')"))
        }
        var batch = BatchUpdateRequest(
            entityName: M.cdqiEntityName, predicate: Self.conjunction(predicates), propertiesToUpdate: assignments.values)
        batch.resultType = .count
        return try Self.count(of: Self.batch { () throws(BatchError) in try context.execute(batch) })
    }

    /// The object fetch this query stands for, whatever its result kind (a selection plays no part in a
    /// batch delete).
    private func batchFetchRequest() -> FetchRequest {
        FetchRequest(
            entityName: M.cdqiEntityName, predicate: Self.conjunction(predicates), sortDescriptors: sortDescriptors,
            fetchLimit: limitCount, fetchOffset: offsetCount)
    }

    private static func batch(_ body: () throws(BatchError) -> BatchResult) throws(QueryError) -> BatchResult {
        do {
            return try body()
        } catch {
            throw .batchFailed(error)
        }
    }

    private static func count(of result: BatchResult) -> Int {
        switch result {
        case .count(let count): count
        case .objectIDs(let ids): ids.count
        case .status: 0
        }
    }
}
