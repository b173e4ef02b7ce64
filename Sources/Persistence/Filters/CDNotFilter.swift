import CDQIPredicate

/// `NOT <filter>` (private to upstream's `CDFilterFactory.m`; public here so it can be inspected).
/// Its property and values are the wrapped filter's.
open class CDNotFilter: CDFilter {
    /// The wrapped filter.
    public let filter: CDFilter

    /// `NOT filter`.
    public init(filter: CDFilter) {
        self.filter = filter
        super.init(property: filter.property, values: filter.bindValues)
    }

    open override func tryCreatePredicate() throws(PersistenceError) -> PredicateNode {
        .not(try filter.tryCreatePredicate())
    }
}
