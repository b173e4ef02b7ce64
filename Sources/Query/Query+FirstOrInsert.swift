import CDQIStore

extension Query where T: Queryable {
    /// The first matching object, or else a new object inserted into the context with the values of
    /// the query's conditions.
    ///
    /// ```swift
    /// let entity = try Entity.query(in: context).where([.name: "Alice", .quantity: 1]).firstOrInsert()
    /// ```
    ///
    /// It only works when every condition is a dictionary `where` with plain values (equalities).
    ///
    /// - Throws: ``QueryError/tooComplex`` (before fetching) when the query has an `or`, an
    ///   inequality, a range or a format-string condition; other ``QueryError``s; the store's error; a
    ///   `ManagedObjectError` when a value does not fit its attribute (the new object is then removed).
    public func firstOrInsert() throws -> T {
        if let failure { throw failure }
        guard let defaultValues else { throw QueryError.tooComplex }
        if let first = try first() { return first }
        let new = try insertObject()
        do {
            for key in defaultValues.keys.sorted() { try new.setValue(defaultValues[key], forKey: key) }
        } catch {
            try? context.delete(new)  // the error thrown is the one that matters
            throw error
        }
        return new
    }
}

extension Query {
    /// A new object of the query's entity, inserted into the context.
    func insertObject() throws -> T {
        let layout = try EntityResolution.entity(of: T.self, in: context)
        let object = try context.insertNewObject(forEntityName: layout.name)
        guard let typed = object as? T else {
            try? context.delete(object)  // the error thrown is the one that matters
            throw QueryError.classMismatch(
                entity: layout.name, className: String(describing: T.self),
                registeredClassName: String(describing: type(of: object)))
        }
        return typed
    }
}
