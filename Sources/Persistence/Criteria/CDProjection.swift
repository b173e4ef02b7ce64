import CDQIStore

/// A projection: the query returns dictionaries of chosen values instead of objects. A property
/// projection's value is keyed by the property name; a function projection's by the function name and
/// the property, `"min:property1"`.
open class CDProjection: CDCriteriaElement {
    /// The function, for a function projection.
    public let function: CDFunction?

    /// A projection of no property.
    public override init() {
        function = nil
        super.init()
    }

    /// A projection of `property`.
    public override init(property: String?) {
        function = nil
        super.init(property: property)
    }

    /// A projection of `function`.
    public init(function: CDFunction) {
        self.function = function
        super.init(property: function.property)
    }

    /// A projection of `property`.
    open class func createWithProperty(_ property: String?) -> CDProjection {
        CDProjection(property: property)
    }

    /// A projection of `function`.
    open class func createWithFunction(_ function: CDFunction) -> CDProjection {
        CDProjection(function: function)
    }

    /// The fetched column: for a property, its entry in `entityProperties`, or the key path by name
    /// when absent (the fetch then reports an unknown name); for a function, an expression column named
    /// `name + property`. `nil` for a projection of no property.
    open func createPropertyDescription(_ entityProperties: [String: FetchedProperty]) -> FetchedProperty? {
        if let function {
            return .expression(
                ExpressionDescription(
                    name: function.name + (function.property ?? ""), expression: function.createExpression(),
                    resultType: function.resultType))
        }
        guard let property else { return nil }
        return entityProperties[property] ?? .keyPath(property)
    }
}
