import CDQIPredicate

/// What to fetch: an entity, a predicate, an order, and a window.
public struct FetchRequest: Sendable, Hashable {
    /// The entity fetched.
    public var entityName: String
    /// The condition, or `nil` for every object.
    public var predicate: PredicateNode?
    /// The order; ties are broken by primary key, so sorted results are deterministic. Without sort
    /// descriptors the order is the store's and unspecified (as in Core Data), unless the request has a
    /// window (``fetchLimit`` or ``fetchOffset``): then it is primary-key order, so that pages are stable.
    public var sortDescriptors: [FetchSortDescriptor]
    /// The most results to return; 0 for no limit.
    public var fetchLimit: Int
    /// How many matches to skip.
    public var fetchOffset: Int
    /// Whether objects of sub-entities match too.
    public var includesSubentities: Bool
    /// The columns of a dictionary fetch; empty for every attribute of the entity.
    public var propertiesToFetch: [FetchedProperty] = []
    /// The columns a dictionary fetch groups by.
    public var propertiesToGroupBy: [FetchedProperty] = []
    /// The condition on groups; it may repeat an aggregate or name an expression as `$name`.
    public var havingPredicate: PredicateNode?
    /// Whether a dictionary fetch drops duplicate rows (`SELECT DISTINCT`).
    public var returnsDistinctResults: Bool = false
    /// How many objects a ``FetchCursor`` reads at a time; 0 for its default. ``ManagedObjectContext/fetch(_:)``
    /// returns every object at once whatever this says: walk a cursor to keep memory flat.
    public var fetchBatchSize: Int = 0
    /// Relationship key paths (`"department"`, `"languages"`, `"department.employees"`) whose objects
    /// ``ManagedObjectContext/fetch(_:)`` loads with the results, one query per step and per 500 objects,
    /// instead of one query per object on first use.
    public var relationshipKeyPathsForPrefetching: [String] = []
    /// Whether fetched objects may come back as faults (`true`, Core Data's default). Objects whose
    /// rows the fetch read anyway come back filled either way; `false` makes sure every object is filled
    /// before ``ManagedObjectContext/fetch(_:)`` returns.
    public var returnsObjectsAsFaults: Bool = true

    /// Creates a request.
    public init(
        entityName: String, predicate: PredicateNode? = nil, sortDescriptors: [FetchSortDescriptor] = [],
        fetchLimit: Int = 0, fetchOffset: Int = 0, includesSubentities: Bool = true
    ) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
        self.includesSubentities = includesSubentities
    }
}

extension FetchRequest {
    /// Whether the request has a limit or an offset (a `LIMIT … OFFSET …` clause).
    package var hasWindow: Bool { fetchLimit > 0 || fetchOffset > 0 }
}
