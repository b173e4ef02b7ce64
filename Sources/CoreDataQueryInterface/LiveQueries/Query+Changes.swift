import CDQIPredicate
import CDQIStore

// Live queries: a query observed as an async sequence of its results, refreshed after each save that
// changes them (see `LiveQuery`).
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
        let query = DetachedQuery(self)
        let observer = LiveListObserver<R> { context throws(QueryError) in
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
        return LiveQuery(container: container, observer: observer)
    }

    /// The number of results (as ``count(managedObjectContext:)`` counts them) now and after every save
    /// that changes it, counted on new background contexts of `container`. A save that leaves the count
    /// as it was yields nothing. See ``LiveQuery``.
    public func countChanges(in container: PersistentContainer) -> LiveQuery<Int> {
        let query = DetachedQuery(self)
        let observer = LiveCountObserver { context throws(QueryError) in
            try query.query.count(managedObjectContext: context)
        }
        return LiveQuery(container: container, observer: observer)
    }
}

extension Query where M: ManagedObject, R == M {
    /// The IDs of the objects the query matches, now and after every save that changes them or updates
    /// one of them (``ids()`` then ``changes(in:)``): objects cannot cross tasks, their IDs can.
    public func changes(in container: PersistentContainer) -> LiveQuery<LiveQueryChange<ManagedObjectID>> {
        ids().changes(in: container)
    }
}

extension Query where M: ManagedObject, R == [String: Any] {
    /// The dictionary results (see ``dictionaries(in:)``), with `Sendable` values, now and after every
    /// save that changes them, each with the changeset from the rows before. See ``LiveQuery``.
    public func changes(in container: PersistentContainer) -> LiveQuery<LiveQueryChange<[String: any Sendable]>> {
        let query = DetachedQuery(self)
        let observer = LiveListObserver<[String: any Sendable]> { context throws(QueryError) in
            let query = query.query
            let rows = try query.dictionaryRows(context)
            return (rows.map(LiveRowKey.row), rows.map { query.dictionary($0, context: context) { $0 } })
        }
        return LiveQuery(container: container, observer: observer)
    }
}
