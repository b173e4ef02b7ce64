import CDQIStore

extension Query {
    /// The same query bound to `context`: execution uses it unless another context is passed as
    /// `managedObjectContext:` (the last context named wins). The query itself is unchanged and can
    /// still run against any other context.
    public func context(_ context: ManagedObjectContext) -> Query {
        var copy = self
        copy.boundContext = context
        return copy
    }

    /// The context a run uses: the one passed, else the bound one.
    ///
    /// - Throws: ``QueryError/noContext(entity:)`` when there is neither.
    func resolveContext(_ given: ManagedObjectContext?) throws(QueryError) -> ManagedObjectContext {
        guard let context = given ?? boundContext else { throw .noContext(entity: M.cdqiEntityName) }
        return context
    }
}
