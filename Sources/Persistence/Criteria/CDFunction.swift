import CDQIModel
import CDQIPredicate

/// A function of a property's values, for projections: `min:`, `max:`, `sum:`, `lower:` or `count:`.
/// Its projection's result key is ``name`` followed by the property: `"max:intProperty"`.
open class CDFunction: CDCriteriaElement {
    /// Upstream's function name, with its colon: `"min:"`, `"max:"`, `"sum:"`, `"lower:"`, `"count:"`.
    public let name: String
    /// The type of the result.
    public let resultType: AttributeType

    /// A function named `name` of `property`, whose result has type `resultType`.
    public init(name: String, property: String?, resultType: AttributeType) {
        self.name = name
        self.resultType = resultType
        super.init(property: property)
    }

    /// The least value of `property`.
    open class func min(_ property: String?, resultType: AttributeType) -> CDFunction {
        CDFunction(name: "min:", property: property, resultType: resultType)
    }

    /// The greatest value of `property`.
    open class func max(_ property: String?, resultType: AttributeType) -> CDFunction {
        CDFunction(name: "max:", property: property, resultType: resultType)
    }

    /// The sum of the values of `property`.
    open class func sum(_ property: String?, resultType: AttributeType) -> CDFunction {
        CDFunction(name: "sum:", property: property, resultType: resultType)
    }

    /// `property` in lower case. Upstream's `lower:` is not a function of the predicate language; it
    /// is computed as `lowercase:`, and its result key keeps upstream's name (`"lower:name"`).
    open class func lower(_ property: String?, resultType: AttributeType) -> CDFunction {
        CDFunction(name: "lower:", property: property, resultType: resultType)
    }

    /// The number of values of `property` (for a to-many relationship: of related objects), an Integer 32.
    open class func count(_ property: String?) -> CDFunction {
        CDFunction(name: "count:", property: property, resultType: .integer32)
    }

    /// The expression `function:(property)`; `lower:` becomes `lowercase:`. An unknown function name
    /// gives the bare key path.
    open func createExpression() -> ExpressionNode {
        let argument = ExpressionNode.keyPath(property ?? "")
        let function: BuiltinFunction? =
            switch name {
            case "lower:": .lowercase
            default: BuiltinFunction(rawValue: name)
            }
        guard let function else { return argument }
        return .function(function, [argument])
    }
}
