import CDQIStore

/// The objects a ``Query`` fetches: every `ManagedObject` conforms, which gives each managed object
/// class `query(in:)` and each object `query()`.
public protocol FetchRequestResult: AnyObject {}

extension ManagedObject: FetchRequestResult {}

extension FetchRequestResult where Self: ManagedObject {
    /// A new query for objects of this class in a context.
    ///
    /// ```swift
    /// let entities = try Entity.query(in: context).where("quantity == 1").all()
    /// ```
    public static func query(in context: ManagedObjectContext) -> Query<Self> {
        Query<Self>(in: context)
    }

    /// A new query for objects of this class in the context of this object.
    ///
    /// - Throws: ``QueryError/noContext(entity:)`` when the object is in no context (it was never
    ///   inserted, or its context was reset). Upstream traps there; a single `try` in front of the
    ///   whole chain (`try entity.query().count()`) covers it.
    public func query() throws(QueryError) -> Query<Self> {
        guard let context = managedObjectContext else { throw .noContext(entity: entity.name) }
        return Query<Self>(in: context)
    }
}
