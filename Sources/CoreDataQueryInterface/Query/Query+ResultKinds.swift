import CDQIStore

extension Query {
    /// The same query returning objects of `M` (Core Data's `.managedObjectResultType`). Selection,
    /// grouping and HAVING are kept but play no part until the query selects again.
    public func objects() -> Query<M, M> {
        withResult(.objects)
    }

    /// The same query returning the objects' IDs (Core Data's `.managedObjectIDResultType`).
    public func ids() -> Query<M, ManagedObjectID> {
        withResult(.objectIDs)
    }
}
