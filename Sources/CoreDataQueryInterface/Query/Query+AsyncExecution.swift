import CDQIStore

// Running a query from async code, for results that can cross tasks: object IDs, counts, typed rows,
// dictionaries of `Sendable` values. Each call runs the query on a new context of the container's, in
// a task of its own (``PersistentContainer/performBackgroundTask(_:)``), so a request handler needs no
// context and no closure for a read:
//
//     let ids = try await Query.from(Employee.self).filter { $0.salary > 100_000 }.ids().all(in: container)
//
// The new context has no unsaved changes: results are what the store holds. A context bound to the
// query with `context(_:)` plays no part. Object results are not offered: managed objects are not
// `Sendable`; fetch IDs, or use `performBackgroundTask` and keep the objects inside it.
extension Query where M: ManagedObject {
    /// Every result, in order, fetched on a new background context of `container`: object IDs (after
    /// ``ids()``), typed rows (after a typed `select`), or any other `Sendable` result.
    ///
    /// - Throws: ``QueryError``.
    public nonisolated(nonsending) func all(in container: PersistentContainer) async throws(QueryError) -> [R] where R: Sendable {
        try await DetachedQuery(self).run(in: container) { query, context throws(QueryError) in
            try query.all(managedObjectContext: context)
        }
    }

    /// The first result, or `nil` when there is none, fetched on a new background context of
    /// `container`; see ``all(in:)``.
    ///
    /// - Throws: ``QueryError``.
    public nonisolated(nonsending) func first(in container: PersistentContainer) async throws(QueryError) -> R? where R: Sendable {
        try await limit(1).all(in: container).first
    }

    /// The IDs of the objects the query matches, in order, fetched on a new background context of
    /// `container` (``ids()`` then ``all(in:)``).
    ///
    /// - Throws: ``QueryError``.
    public nonisolated(nonsending) func ids(in container: PersistentContainer) async throws(QueryError) -> [ManagedObjectID] {
        try await ids().all(in: container)
    }

    /// The number of results (see ``count(managedObjectContext:)``), counted on a new background context
    /// of `container`.
    ///
    /// - Throws: ``QueryError``.
    public nonisolated(nonsending) func count(in container: PersistentContainer) async throws(QueryError) -> Int {
        try await DetachedQuery(self).run(in: container) { query, context throws(QueryError) in
            try query.count(managedObjectContext: context)
        }
    }

    /// Whether there is at least one result, on a new background context of `container`.
    ///
    /// - Throws: ``QueryError``.
    public nonisolated(nonsending) func exists(in container: PersistentContainer) async throws(QueryError) -> Bool {
        try await limit(1).count(in: container) > 0
    }

    /// The values of one proxy or aggregate, one per result row (see ``array(managedObjectContext:_:)``),
    /// fetched on a new background context of `container`.
    ///
    /// - Throws: ``QueryError``.
    public nonisolated(nonsending) func array<S: QuerySelectable>(
        in container: PersistentContainer, _ build: (M.CDQIAttribute) -> S
    ) async throws(QueryError) -> [S.CDQIValue?] where S.CDQIValue: Sendable {
        try await select { build($0) }.all(in: container)
    }

    /// The value of one proxy or aggregate in the first result row (see ``value(managedObjectContext:_:)``),
    /// fetched on a new background context of `container`.
    ///
    /// - Throws: ``QueryError``.
    public nonisolated(nonsending) func value<S: QuerySelectable>(
        in container: PersistentContainer, _ build: (M.CDQIAttribute) -> S
    ) async throws(QueryError) -> S.CDQIValue? where S.CDQIValue: Sendable {
        try await array(in: container, build).first ?? nil
    }
}

extension Query where M: ManagedObject, R == [String: Any] {
    /// The dictionary results (see `select(_:)`), fetched on a new background context of `container`,
    /// with `Sendable` values: the same keys and values as ``all(managedObjectContext:)`` gives
    /// (`Int`, `Double`, `Decimal`, `String`, `Bool`, `Date`, `Data`, `UUID`, `URL`, ``ManagedObjectID``;
    /// NULL has no key).
    ///
    /// - Throws: ``QueryError``.
    public nonisolated(nonsending) func dictionaries(in container: PersistentContainer) async throws(QueryError) -> [[String: any Sendable]] {
        try await DetachedQuery(self).run(in: container) { query, context throws(QueryError) in
            try query.dictionaryRows(context).map { query.dictionary($0, context: context) { $0 } }
        }
    }
}

extension Query where M: ManagedObject {
    /// The values of one key path written as a string, one per result row (see
    /// the string form of `array(managedObjectContext:_:)`), fetched on a new background context of `container`.
    ///
    /// - Throws: ``QueryError``.
    public nonisolated(nonsending) func array(in container: PersistentContainer, _ keyPath: String) async throws(QueryError) -> [(any Sendable)?] {
        let selection = keyPath.cdqiSelection
        var query: Query<M, [String: Any]> = withResult(.dictionaries)
        query.selections = [selection]
        return try await query.dictionaries(in: container).map { $0[selection.name] }
    }

    /// The value of one key path written as a string in the first result row, fetched on a new
    /// background context of `container`; `nil` when NULL or when there is no row.
    ///
    /// - Throws: ``QueryError``.
    public nonisolated(nonsending) func value(in container: PersistentContainer, _ keyPath: String) async throws(QueryError) -> (any Sendable)? {
        try await array(in: container, keyPath).first ?? nil
    }
}
