import CDQIStore

extension Query where M: ManagedObject {
    /// How the store runs this query: its SQL, the bound values, SQLite's query plan, and warnings in
    /// plain words (a filtered or sorted attribute no index serves, with the fetch index to add; a
    /// constant whose kind differs from its attribute's). Nothing is fetched.
    ///
    /// ```swift
    /// print(try context.from(Employee.self).filter { $0.salary > 100_000 }.explain())
    /// ```
    ///
    /// - Throws: ``QueryError/noContext(entity:)`` without a context, ``QueryError/fetchFailed(_:)``
    ///   when the store refuses the request (an unknown key, …).
    public func explain(managedObjectContext: ManagedObjectContext? = nil) throws(QueryError) -> FetchExplanation {
        let context = try resolveContext(managedObjectContext)
        do {
            return try context.explain(request())
        } catch {
            throw .fetchFailed(error)
        }
    }
}
