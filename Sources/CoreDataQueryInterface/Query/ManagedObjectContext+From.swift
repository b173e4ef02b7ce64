import CDQIStore

extension ManagedObjectContext {
    /// A query over all objects of `entity`, bound to this context: `context.from(Employee.self)`.
    public func from<M: Entity>(_ entity: M.Type) -> Query<M, M> {
        Query<M, M>().context(self)
    }
}
