import CDQIPredicate
import CDQIStore

/// A fetch, as a value: every chained call returns a new query and leaves the old one unchanged.
///
/// `M` is the entity queried, `R` the result type. Execution against a context is not part of this
/// type yet; ``request()`` gives the fetch request the query stands for.
public struct Query<M: Entity, R> {
    var predicates: [PredicateNode] = []
    var sortDescriptors: [FetchSortDescriptor] = []
    var limitCount = 0
    var offsetCount = 0

    /// Creates a query over all objects of `M`.
    public init() {}

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

    /// Appends ascending (or descending) orderings by key path.
    public func order(ascending: Bool = true, _ keyPaths: String...) -> Query {
        var copy = self
        copy.sortDescriptors += keyPaths.map { FetchSortDescriptor(keyPath: $0, ascending: ascending) }
        return copy
    }

    /// Appends orderings by the proxies `build` returns.
    public func order(ascending: Bool = true, _ build: (M.CDQIAttribute) -> [any KeyPathExpressionConvertible]) -> Query {
        var copy = self
        copy.sortDescriptors += build(M.CDQIAttribute()).map { FetchSortDescriptor(keyPath: $0.cdqiKeyPath, ascending: ascending) }
        return copy
    }

    /// Removes every ordering.
    public func reorder() -> Query {
        var copy = self
        copy.sortDescriptors = []
        return copy
    }

    /// Returns at most `count` results (0: no limit).
    public func limit(_ count: Int) -> Query {
        var copy = self
        copy.limitCount = max(0, count)
        return copy
    }

    /// Skips the first `count` results.
    public func offset(_ count: Int) -> Query {
        var copy = self
        copy.offsetCount = max(0, count)
        return copy
    }

    /// The fetch request this query stands for.
    public func request() -> FetchRequest {
        let predicate: PredicateNode? = switch predicates.count {
        case 0: nil
        case 1: predicates[0]
        default: .and(predicates)
        }
        return FetchRequest(entityName: M.cdqiEntityName, predicate: predicate, sortDescriptors: sortDescriptors,
                            fetchLimit: limitCount, fetchOffset: offsetCount)
    }
}

extension Query where R == M {
    /// Creates a query over all objects of `entity`, returning objects: `Query.from(Employee.self)`.
    public static func from(_ entity: M.Type) -> Query<M, M> { Query<M, M>() }
}
