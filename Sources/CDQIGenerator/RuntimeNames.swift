import CDQIModel

/// The names CoreDataQueryInterface declares that generated code refers to or could collide with.
///
/// A proxy name on this list would redeclare a runtime type, so the generator renames the proxy.
/// A test checks this list against the runtime's sources, so a type added there is not forgotten here.
enum RuntimeNames {
    /// The module generated code imports.
    static let module = "CoreDataQueryInterface"

    /// Every public type name of the runtime module.
    static let types: Set<String> = [
        "AttributeProxy", "EntityAttribute", "ScalarAttribute", "TransformableAttribute", "KeyPathExpressionConvertible",
        "Entity", "Subqueryable", "Query", "TypedExpressionConvertible",
        "StringAttribute", "Integer16Attribute", "Integer32Attribute", "Integer64Attribute",
        "DoubleAttribute", "FloatAttribute", "DecimalAttribute", "BooleanAttribute", "BoolAttribute",
        "DateAttribute", "DataAttribute", "UUIDAttribute", "URIAttribute",
    ]

    /// The proxy type of an attribute type, or `nil` for the types that have none (Undefined,
    /// ObjectID, Composite).
    static func proxyType(for type: AttributeType) -> String? {
        switch type {
        case .string: "StringAttribute"
        case .integer16: "Integer16Attribute"
        case .integer32: "Integer32Attribute"
        case .integer64: "Integer64Attribute"
        case .decimal: "DecimalAttribute"
        case .double: "DoubleAttribute"
        case .float: "FloatAttribute"
        case .boolean: "BooleanAttribute"
        case .date: "DateAttribute"
        case .binaryData: "DataAttribute"
        case .uuid: "UUIDAttribute"
        case .uri: "URIAttribute"
        case .transformable: "TransformableAttribute"
        case .undefined, .objectID, .composite: nil
        }
    }
}
