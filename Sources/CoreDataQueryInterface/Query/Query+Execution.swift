import CDQIPredicate
import CDQIStore

// Running a query. Every method takes an optional context; the one passed wins over the one bound with
// `context(_:)`. With neither, the method throws `QueryError.noContext`; nothing ever traps.
//
// Object and object-ID results include the context's unsaved changes (as Core Data's fetches do).
// Dictionary and typed results read the saved data only (as Core Data's dictionary fetches do).
extension Query where M: ManagedObject {
    /// Every result, in order.
    ///
    /// Objects are instances of the class registered for the entity
    /// (`coordinator.register(Employee.self, forEntityName: "Employee")`); an object that is not an `M`
    /// is a ``QueryError/notAnInstance(entity:expectedClass:actualClass:)``.
    ///
    /// - Throws: ``QueryError``.
    public func all(managedObjectContext: ManagedObjectContext? = nil) throws(QueryError) -> [R] {
        let context = try resolveContext(managedObjectContext)
        switch resultKind {
        case .objects:
            let objects = try Self.run { try context.fetch(request()) }
            if objects.isEmpty { return [] }
            // Usually every object is exactly of class `R`: then the array is reinterpreted (arrays of
            // classes share one representation) rather than cast object by object through the runtime.
            // Only a non-empty array proves `R` is that class (an empty one would pass for any `R`).
            if objects.allSatisfy(Self.isExactlyResultClass) {
                return unsafeBitCast(objects, to: [R].self)
            }
            var results: [R] = []
            results.reserveCapacity(objects.count)
            for object in objects { results.append(try Self.typed(object)) }
            return results
        case .objectIDs:
            let ids = try Self.run { try context.fetchObjectIDs(request()) }
            return try ids.map { id throws(QueryError) in try Self.cast(id, column: "objectID") }
        case .dictionaries:
            let rows = try dictionaryRows(context)
            return try rows.map { row throws(QueryError) in
                try Self.cast(dictionary(row, context: context) { $0 as Any }, column: "*")
            }
        case .values:
            guard let rowDecoder else { return [] }
            let rows = try dictionaryRows(context)
            var results: [R] = []
            results.reserveCapacity(rows.count)
            for row in rows { results.append(try rowDecoder.decode(row, context)) }
            return results
        }
    }

    /// The first result, or `nil` when there is none.
    ///
    /// - Throws: ``QueryError``.
    public func first(managedObjectContext: ManagedObjectContext? = nil) throws(QueryError) -> R? {
        guard resultKind == .objects else { return try limit(1).all(managedObjectContext: managedObjectContext).first }
        // The request of `limit(1)`, without copying the query: this runs once per lookup.
        let context = try resolveContext(managedObjectContext)
        var limited = request()
        limited.fetchLimit = 1
        // A constant, so that the closure borrows it (a captured variable was copied for the call).
        let request = limited
        let objects = try Self.run { try context.fetch(request) }
        guard let object = objects.first else { return nil }
        return try Self.typed(object)
    }

    /// Whether `object`'s class is `R` itself (not a subclass): then the object may be reinterpreted as
    /// an `R` without a cast through the runtime.
    @inline(__always) private static func isExactlyResultClass(_ object: ManagedObject) -> Bool {
        ObjectIdentifier(type(of: object)) == ObjectIdentifier(R.self)
    }

    /// An object fetched for an object query, as `R`.
    private static func typed(_ object: ManagedObject) throws(QueryError) -> R {
        // Usually the object is exactly of class `R`, which the check proves: then it is reinterpreted
        // rather than cast through the runtime (as `all` does with its array).
        if isExactlyResultClass(object) { return unsafeBitCast(object, to: R.self) }
        guard let typed = object as? R else {
            throw .notAnInstance(
                entity: object.entity.name, expectedClass: String(describing: R.self),
                actualClass: String(describing: type(of: object)))
        }
        return typed
    }

    /// The number of results ``all(managedObjectContext:)`` returns (its window included): objects for
    /// object and ID queries, rows (or groups) for dictionary and typed queries.
    ///
    /// - Throws: ``QueryError``.
    public func count(managedObjectContext: ManagedObjectContext? = nil) throws(QueryError) -> Int {
        let context = try resolveContext(managedObjectContext)
        switch resultKind {
        case .objects, .objectIDs:
            return try Self.run { try context.count(for: request()) }
        case .dictionaries, .values:
            return try dictionaryRows(context).count
        }
    }

    /// Whether there is at least one result.
    ///
    /// - Throws: ``QueryError``.
    public func exists(managedObjectContext: ManagedObjectContext? = nil) throws(QueryError) -> Bool {
        try limit(1).count(managedObjectContext: managedObjectContext) > 0
    }

    /// The values of one proxy or aggregate, one per result row (per group when grouped), keeping the
    /// query's filters, grouping and order: `array { $0.lastName }` is `[String?]`. A NULL value is `nil`.
    ///
    /// - Throws: ``QueryError``.
    public func array<S: QuerySelectable>(
        managedObjectContext: ManagedObjectContext? = nil, _ build: (M.CDQIAttribute) -> S
    ) throws(QueryError) -> [S.CDQIValue?] {
        try select { build($0) }.all(managedObjectContext: managedObjectContext)
    }

    /// The values of one key path, one per result row, as Swift values (see `select(_:)`);
    /// a NULL value is `nil`.
    ///
    /// - Throws: ``QueryError``.
    public func array(managedObjectContext: ManagedObjectContext? = nil, _ keyPath: String) throws(QueryError) -> [Any?] {
        let selection = keyPath.cdqiSelection
        var query: Query<M, [String: Any]> = withResult(.dictionaries)
        query.selections = [selection]
        return try query.all(managedObjectContext: managedObjectContext).map { $0[selection.name] }
    }

    /// The value of one proxy or aggregate in the first result row, typically an aggregate over every
    /// object matching the filters: `value { $0.salary.cdqiMax() }`. `nil` when the value is NULL
    /// (`max` of no rows, for example) or there is no row; never a crash.
    ///
    /// - Throws: ``QueryError``.
    public func value<S: QuerySelectable>(
        managedObjectContext: ManagedObjectContext? = nil, _ build: (M.CDQIAttribute) -> S
    ) throws(QueryError) -> S.CDQIValue? {
        try array(managedObjectContext: managedObjectContext, build).first ?? nil
    }

    /// The value of one key path written as a string (`"department.name"`) in the first result row, as
    /// a Swift value; `nil` when NULL or when there is no row. (Use the closure form for aggregates.)
    ///
    /// - Throws: ``QueryError``.
    public func value(managedObjectContext: ManagedObjectContext? = nil, _ keyPath: String) throws(QueryError) -> Any? {
        try array(managedObjectContext: managedObjectContext, keyPath).first ?? nil
    }

    // MARK: Helpers

    /// The rows of the dictionary fetch this query stands for, after checking the selection's names.
    func dictionaryRows(_ context: ManagedObjectContext) throws(QueryError) -> [[String: StoredValue]] {
        var seen: [String: FetchedProperty] = [:]
        for selection in selections {
            if let earlier = seen[selection.name], earlier != selection.property {
                throw .duplicateColumnName(selection.name)
            }
            seen[selection.name] = selection.property
        }
        return try Self.run { try context.fetchDictionaries(request()) }
    }

    /// A store row as a dictionary result: keyed by the selections' names, Swift values (each made a
    /// `Value` by `wrap`: `Any` for ``all(managedObjectContext:)``, `any Sendable` for the async forms),
    /// NULL left out.
    func dictionary<Value>(
        _ row: [String: StoredValue], context: ManagedObjectContext, _ wrap: (any Sendable) -> Value
    ) -> [String: Value] {
        var result: [String: Value] = [:]
        if selections.isEmpty {
            for (key, value) in row {
                if let swift = QueryValueConversion.swiftValue(value, context: context) { result[key] = wrap(swift) }
            }
            return result
        }
        for selection in selections {
            if let value = row[selection.storeKey], let swift = QueryValueConversion.swiftValue(value, context: context) {
                result[selection.name] = wrap(swift)
            }
        }
        return result
    }

    /// `value` as an `R`; a result kind that does not match `R` is a value mismatch, never a trap.
    private static func cast<V>(_ value: V, column: String) throws(QueryError) -> R {
        guard let typed = value as? R else {
            throw .valueMismatch(column: column, expected: "a value of type \(R.self)", actual: "a \(V.self)")
        }
        return typed
    }

    /// Runs a store call, wrapping its error.
    static func run<T>(_ body: () throws -> T) throws(QueryError) -> T {
        do {
            return try body()
        } catch let error as QueryError {
            throw error
        } catch {
            throw .fetchFailed(error)
        }
    }
}
