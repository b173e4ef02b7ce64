import CDQIPredicate
import CDQIStore

extension Query {
    /// A new fetch request with this query's entity, conditions (`TRUEPREDICATE` when there are none)
    /// and sort keys: to customize further, or to hand to code that takes a `FetchRequest`.
    ///
    /// - Throws: the ``QueryError`` kept while building, ``QueryError/entityNotFound(className:)`` or
    ///   ``QueryError/unknownKey(_:entity:)``.
    public var fetchRequest: FetchRequest {
        get throws(QueryError) {
            if let failure { throw failure }
            let layout = try EntityResolution.entity(of: T.self, in: context)
            try EntityResolution.checkKeys(namedKeys, of: layout)
            return FetchRequest(entityName: layout.name, predicate: predicate, sortDescriptors: sortDescriptors)
        }
    }

    /// Every matching object, in the query's order, unsaved changes of the context included.
    ///
    /// - Throws: a ``QueryError``, or the store's error.
    public func all() throws -> [T] {
        try Self.typed(context.fetch(fetchRequest))
    }

    /// The number of matching objects, unsaved changes of the context included.
    ///
    /// - Throws: a ``QueryError``, or the store's error.
    public func count() throws -> Int {
        try context.count(for: fetchRequest)
    }

    /// The first matching object in the query's order (without an order, any match), or `nil`.
    ///
    /// - Throws: a ``QueryError``, or the store's error.
    public func first() throws -> T? {
        var request = try fetchRequest
        request.fetchLimit = 1
        guard let object = try context.fetch(request).first else { return nil }
        return try Self.typed(object)
    }

    /// One fetched object as `T`: the entity resolution made `T` its class (or a subclass's). A lookup
    /// casts only the object it returns, with no array.
    static func typed(_ object: ManagedObject) throws(QueryError) -> T {
        guard let typed = object as? T else {
            throw .classMismatch(
                entity: object.entity.name, className: String(describing: T.self),
                registeredClassName: String(describing: type(of: object)))
        }
        return typed
    }

    /// The fetched objects as `T`, each cast as the single-object form above casts it.
    static func typed(_ objects: [ManagedObject]) throws(QueryError) -> [T] {
        var typed: [T] = []
        typed.reserveCapacity(objects.count)
        for object in objects { typed.append(try Self.typed(object)) }
        return typed
    }
}
