import CDQIPredicate

/// `property == nil` or `property != nil`.
open class CDNullFilter: CDFilter {
    /// `true` for `== nil`, `false` for `!= nil`.
    public var isNull: Bool

    /// A filter `property == nil` (or `!= nil` when `isNull` is `false`).
    public init(property: String?, isNull: Bool = true) {
        self.isNull = isNull
        super.init(property: property)
    }

    open override func tryCreatePredicate() throws(PersistenceError) -> PredicateNode {
        guard let property else { throw .invalidFilter(property: nil, reason: "no property") }
        return try parse(isNull ? "%K == nil" : "%K != nil", [property])
    }
}
