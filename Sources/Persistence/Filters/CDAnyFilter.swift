import CDQIPredicate

/// `ANY <filter>`: true when some element of the filter's to-many key path passes it
/// (`ANY childs.intProperty == 1`). Its property and values are the wrapped filter's.
open class CDAnyFilter: CDFilter {
    /// The wrapped filter.
    public let filter: CDFilter

    /// `ANY filter`.
    public init(filter: CDFilter) {
        self.filter = filter
        super.init(property: filter.property, values: filter.bindValues)
    }

    open override func tryCreatePredicate() throws(PersistenceError) -> PredicateNode {
        try quantified(filter, .any, keyword: "ANY")
    }
}
