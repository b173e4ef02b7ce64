import CDQIPredicate
import CDQIStore

// Live queries: a query observed as an async sequence of its results, refreshed after each change
// that can change them (see `LiveQuery` and `ContextLiveQuery`).
extension Query where M: ManagedObject {
    /// The query's results now and after every save that changes them, each with the changeset from
    /// the results before: object IDs (after ``ids()``) or typed rows (after a typed `select`), fetched
    /// on new background contexts of `container`.
    ///
    /// ```swift
    /// for try await change in Query.from(Employee.self).filter { $0.salary > 90_000 }.ids().changes(in: container) {
    ///     print(change.results.count, change.inserted, change.removed, change.updated)
    /// }
    /// ```
    ///
    /// An aggregate is a typed query of one row: `select { $0.salary.cdqiSum() }.changes(in:)` yields
    /// the new sum each time it changes. See ``LiveQuery`` for what is watched and when elements come.
    public func changes(in container: PersistentContainer) -> LiveQuery<LiveQueryChange<R>> where R: Sendable {
        LiveQuery(container: container, observer: listObserver())
    }

    /// The query's results now and after every change of `context` or save of its coordinator that
    /// changes them, fetched on `context` itself: with `includingUnsavedChanges` (the default), the
    /// context's inserted, updated and deleted objects count before they are saved, as in its fetches.
    /// Iterate it where the context is used (its task or actor).
    ///
    /// ```swift
    /// let context = container.newBackgroundContext()
    /// for try await change in Query.from(Employee.self).ids().changes(in: context) { … }
    /// ```
    ///
    /// See ``ContextLiveQuery`` for what is watched and when elements come.
    public func changes(
        in context: ManagedObjectContext, includingUnsavedChanges: Bool = true
    ) -> ContextLiveQuery<LiveQueryChange<R>> where R: Sendable {
        ContextLiveQuery(context: context, includesUnsavedChanges: includingUnsavedChanges, observer: listObserver())
    }

    /// The number of results (as ``count(managedObjectContext:)`` counts them) now and after every save
    /// that changes it, counted on new background contexts of `container`. A save that leaves the count
    /// as it was yields nothing. See ``LiveQuery``.
    public func countChanges(in container: PersistentContainer) -> LiveQuery<Int> {
        LiveQuery(container: container, observer: countObserver())
    }

    /// The number of results now and after every change of `context` or save of its coordinator that
    /// changes it, counted on `context` (its unsaved changes included unless `includingUnsavedChanges`
    /// is false). See ``ContextLiveQuery``.
    public func countChanges(in context: ManagedObjectContext, includingUnsavedChanges: Bool = true) -> ContextLiveQuery<Int> {
        ContextLiveQuery(context: context, includesUnsavedChanges: includingUnsavedChanges, observer: countObserver())
    }

    /// Observes the query's rows (object IDs, typed rows): object IDs incrementally where the query
    /// allows it (``LiveIDListObserver``), anything else by fetching again after each change.
    private func listObserver() -> any LiveQueryObserving<LiveQueryChange<R>> where R: Sendable {
        let refetching = refetchingObserver()
        if resultKind == .objectIDs, let plain = refetching as? LiveListObserver<ManagedObjectID>,
            let incremental = LiveIDListObserver(request: request(), refetching: plain) as? any LiveQueryObserving<LiveQueryChange<R>>
        {
            return incremental
        }
        return refetching
    }

    /// Fetches the query's rows (object IDs, typed rows) with the keys that identify them between fetches.
    private func refetchingObserver() -> LiveListObserver<R> where R: Sendable {
        let query = DetachedQuery(self)
        return LiveListObserver<R> { context throws(QueryError) in
            let query = query.query
            switch query.resultKind {
            case .values:
                guard let decoder = query.rowDecoder else { return ([], []) }
                let rows = try query.dictionaryRows(context)
                var results: [R] = []
                results.reserveCapacity(rows.count)
                for row in rows { results.append(try decoder.decode(row, context)) }
                return (rows.map(LiveRowKey.row), results)
            case .objectIDs, .objects, .dictionaries:
                let results = try query.all(managedObjectContext: context)
                let keys = results.map { result -> LiveRowKey in
                    if let id = result as? ManagedObjectID { return .object(id) }
                    if let object = result as? ManagedObject { return .object(object.objectID) }
                    return .row([:])
                }
                return (keys, results)
            }
        }
    }

    private func countObserver() -> LiveCountObserver {
        let query = DetachedQuery(self)
        return LiveCountObserver { context throws(QueryError) in
            try query.query.count(managedObjectContext: context)
        }
    }
}

extension Query where M: ManagedObject, R == M {
    /// The IDs of the objects the query matches, now and after every save that changes them or updates
    /// one of them (``ids()`` then ``changes(in:)``): objects cannot cross tasks, their IDs can.
    public func changes(in container: PersistentContainer) -> LiveQuery<LiveQueryChange<ManagedObjectID>> {
        ids().changes(in: container)
    }

    /// The IDs of the objects the query matches in `context`, now and after every change that changes
    /// them or updates one of them (``ids()`` then ``changes(in:includingUnsavedChanges:)``);
    /// `context.object(with:)` gives the objects.
    public func changes(
        in context: ManagedObjectContext, includingUnsavedChanges: Bool = true
    ) -> ContextLiveQuery<LiveQueryChange<ManagedObjectID>> {
        ids().changes(in: context, includingUnsavedChanges: includingUnsavedChanges)
    }
}

extension Query where M: ManagedObject, R == [String: Any] {
    /// The dictionary results (see ``dictionaries(in:)``), with `Sendable` values, now and after every
    /// save that changes them, each with the changeset from the rows before. See ``LiveQuery``.
    public func changes(in container: PersistentContainer) -> LiveQuery<LiveQueryChange<[String: any Sendable]>> {
        LiveQuery(container: container, observer: dictionaryObserver())
    }

    /// The dictionary results in `context`, with `Sendable` values, now and after every change that
    /// changes them. See ``ContextLiveQuery``.
    public func changes(
        in context: ManagedObjectContext, includingUnsavedChanges: Bool = true
    ) -> ContextLiveQuery<LiveQueryChange<[String: any Sendable]>> {
        ContextLiveQuery(context: context, includesUnsavedChanges: includingUnsavedChanges, observer: dictionaryObserver())
    }

    private func dictionaryObserver() -> LiveListObserver<[String: any Sendable]> {
        let query = DetachedQuery(self)
        return LiveListObserver<[String: any Sendable]> { context throws(QueryError) in
            let query = query.query
            let rows = try query.dictionaryRows(context)
            return (rows.map(LiveRowKey.row), rows.map { query.dictionary($0, context: context) { $0 } })
        }
    }
}
