import CDQIPredicate

/// A filter comparing a property with one value through an operator: `%K <operator> %@`.
open class CDOperatorFilter: CDFilter {
    /// The operator.
    public let operatorType: CDFilterOperatorType

    /// A filter `property <operator> value`.
    public init(propertyAndValue property: String?, value: Any?, operatorType: CDFilterOperatorType) {
        self.operatorType = operatorType
        super.init(propertyAndValue: property, value: value)
    }

    /// The operator as written in the predicate format (upstream's text: `=`, `!=`, `>`, `<`, `<=`,
    /// `>=`, `like`, `in`, `contains`; an unknown operator is `=`). Upstream printed `>` for
    /// ``CDFilterOperatorGreatherOrEqual``, which no factory uses; here it is `>=`.
    open func operatorString() -> String {
        switch operatorType {
        case CDFilterOperatorNotEqual: "!="
        case CDFilterOperatorGreather: ">"
        case CDFilterOperatorGreatherOrEqual: ">="
        case CDFilterOperatorLess: "<"
        case CDFilterOperatorLessOrEqual: "<="
        case CDFilterOperatorLike: "like"
        case CDFilterOperatorIn: "in"
        case CDFilterOperatorContains: "contains"
        default: "="
        }
    }

    open override func tryCreatePredicate() throws(PersistenceError) -> PredicateNode {
        guard let property else { throw .invalidFilter(property: nil, reason: "no property") }
        return try parse("%K \(operatorString()) %@", [property, firstValue])
    }
}
