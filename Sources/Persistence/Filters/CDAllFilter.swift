import CDQIPredicate

/// `ALL <filter>`: true when every element of the filter's to-many key path passes it, and so true
/// over an empty to-many (as the predicate language defines `ALL`). Its property and values are the
/// wrapped filter's.
open class CDAllFilter: CDFilter {
    /// The wrapped filter.
    public let filter: CDFilter

    /// `ALL filter`.
    public init(filter: CDFilter) {
        self.filter = filter
        super.init(property: filter.property, values: filter.bindValues)
    }

    open override func tryCreatePredicate() throws(PersistenceError) -> PredicateNode {
        try quantified(filter, .all, keyword: "ALL")
    }
}
