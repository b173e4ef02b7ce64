import CDQIPredicate

/// A filter that combines filters (Objective-C's `Junction` protocol).
public protocol Junction: CDFilterProtocol {
    /// Adds `filter` and returns the junction, so additions chain.
    @discardableResult
    func add(_ filter: CDFilter) -> Self
}

/// A combination of filters, in the order they were added: ``CDFilterConjunction`` (AND) or
/// ``CDFilterDisjunction`` (OR).
open class CDFilterJunction: CDFilter, Junction {
    /// The filters added so far; `nil` until the first ``add(_:)``, as upstream.
    public private(set) var filters: [CDFilter]?

    /// An empty junction.
    public override init() {
        super.init()
    }

    /// Adds `filter` and returns the junction.
    @discardableResult
    public func add(_ filter: CDFilter) -> Self {
        filters = (filters ?? []) + [filter]
        return self
    }

    /// The members' predicates, in the order added.
    func memberPredicates() throws(PersistenceError) -> [PredicateNode] {
        var predicates: [PredicateNode] = []
        for filter in filters ?? [] {
            predicates.append(try filter.tryCreatePredicate())
        }
        return predicates
    }
}
