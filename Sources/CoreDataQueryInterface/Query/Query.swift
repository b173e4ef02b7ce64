import CDQIPredicate
import CDQIStore

/// A fetch, as a value: every chained call returns a new query and leaves the old one unchanged, so
/// one query can be kept, extended in several directions, and run against any number of contexts.
///
/// `M` is the entity queried, `R` the type of each result:
/// - `Query<Employee, Employee>`: objects (``objects()``), the default;
/// - `Query<Employee, ManagedObjectID>`: object IDs (``ids()``);
/// - `Query<Employee, [String: Any]>`: dictionaries (`select(_:)`, named as CDQI names them);
/// - `Query<Employee, (String?, Int32?)>`: typed rows (`select { … }`).
///
/// ```swift
/// let engineers = try context.from(Employee.self)
///     .filter { $0.department.name == "Engineering" }
///     .order { $0.lastName }
///     .all()
/// ```
///
/// Nothing runs until ``all(managedObjectContext:)``, ``first(managedObjectContext:)``,
/// ``count(managedObjectContext:)``, ``exists(managedObjectContext:)``, ``array(managedObjectContext:_:)``,
/// ``value(managedObjectContext:_:)`` or iteration; ``request()`` gives the fetch request the query
/// stands for.
public struct Query<M: Entity, R> {
    var predicates: [PredicateNode] = []
    var sortDescriptors: [FetchSortDescriptor] = []
    var limitCount = 0
    var offsetCount = 0
    /// The context bound with ``context(_:)``; a context passed at execution wins over it.
    var boundContext: ManagedObjectContext?
    /// What each result is.
    var resultKind: QueryResultKind
    /// The selected columns of a dictionary or typed query; empty selects every attribute.
    var selections: [QuerySelection] = []
    /// The key paths a dictionary or typed query groups by.
    var groupings: [String] = []
    /// The conditions on groups (AND together).
    var havingPredicates: [PredicateNode] = []
    /// Whether duplicate rows are dropped.
    var isDistinct = false
    /// Turns one row of a typed query into `R`; `nil` for the other kinds.
    var rowDecoder: QueryRowDecoder<R>?

    /// Creates a query over all objects of `M`. The kind of result follows from `R`: `M` gives objects,
    /// `ManagedObjectID` object IDs, `[String: Any]` dictionaries of every attribute.
    public init() {
        resultKind =
            if R.self == ManagedObjectID.self {
                .objectIDs
            } else if R.self == [String: Any].self {
                .dictionaries
            } else {
                .objects
            }
    }

    /// The same query with another result type; everything else carried over.
    func withResult<Other>(_ kind: QueryResultKind, decoder: QueryRowDecoder<Other>? = nil) -> Query<M, Other> {
        var other = Query<M, Other>()
        other.predicates = predicates
        other.sortDescriptors = sortDescriptors
        other.limitCount = limitCount
        other.offsetCount = offsetCount
        other.boundContext = boundContext
        other.resultKind = kind
        other.selections = selections
        other.groupings = groupings
        other.havingPredicates = havingPredicates
        other.isDistinct = isDistinct
        other.rowDecoder = decoder
        return other
    }

    /// Adds a predicate built from `M`'s proxy; successive filters AND together.
    public func filter(_ build: (M.CDQIAttribute) -> PredicateNode) -> Query {
        filter(build(M.CDQIAttribute()))
    }

    /// Adds `predicate`; successive filters AND together.
    public func filter(_ predicate: PredicateNode) -> Query {
        var copy = self
        copy.predicates.append(predicate)
        return copy
    }

    /// Adds a predicate written in NSPredicate's format language.
    ///
    /// - Throws: ``PredicateParseError`` naming the offset of the problem.
    public func filter(_ format: String, _ arguments: Any?...) throws(PredicateParseError) -> Query {
        filter(try PredicateNode(format: format, argumentArray: arguments))
    }

    /// Removes every filter.
    public func refilter() -> Query {
        var copy = self
        copy.predicates = []
        return copy
    }

    /// Returns at most `count` results (0: no limit).
    public func limit(_ count: Int) -> Query {
        var copy = self
        copy.limitCount = Swift.max(0, count)
        return copy
    }

    /// Skips the first `count` results.
    public func offset(_ count: Int) -> Query {
        var copy = self
        copy.offsetCount = Swift.max(0, count)
        return copy
    }

    /// The fetch request this query stands for: the filters, orderings and window, and for dictionary
    /// and typed queries the selected columns (named as results name them), grouping, HAVING and DISTINCT.
    public func request() -> FetchRequest {
        let request = FetchRequest(
            entityName: M.cdqiEntityName, predicate: Self.conjunction(predicates), sortDescriptors: sortDescriptors,
            fetchLimit: limitCount, fetchOffset: offsetCount)
        // Object and ID queries (most, and every lookup) return it as made: no copy to change.
        guard resultKind == .dictionaries || resultKind == .values else { return request }
        var selecting = request
        selecting.propertiesToFetch = selections.map(\.property)
        // The root proxy's empty key path groups by the object itself.
        selecting.propertiesToGroupBy = groupings.map { QuerySelection(keyPath: $0).property }
        selecting.havingPredicate = Self.conjunction(havingPredicates)
        selecting.returnsDistinctResults = isDistinct
        return selecting
    }

    /// `nil` for no predicate, the predicate itself for one, their AND for several.
    static func conjunction(_ predicates: [PredicateNode]) -> PredicateNode? {
        switch predicates.count {
        case 0: nil
        case 1: predicates[0]
        default: .and(predicates)
        }
    }
}

extension Query where R == M {
    /// Creates a query over all objects of `entity`, returning objects: `Query.from(Employee.self)`.
    public static func from(_ entity: M.Type) -> Query<M, M> { Query<M, M>() }
}
