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
        "AggregateExpression", "AggregateFunction", "SubqueryExpression", "QueryError", "ExpressionConvertible",
        "QuerySelectable", "TypedExpression", "QueryResultValue", "QueryIterator", "QuerySelection",
        "SelectionConvertible", "ComputedExpression", "AliasedKeyPath", "SortDescriptorConvertible",
        "LiveQuery", "LiveQueryChange", "ContextLiveQuery", "BatchAssignments", "BatchArithmeticValue",
    ]

    /// The types generated entity classes and embedded models refer to, with the module that declares
    /// each (they are written qualified when a class of the model shadows them). A test checks that
    /// each module declares its names.
    static let objectTypeModules: [String: String] = [
        "ManagedObject": "CDQIStore", "GeneratedModel": "CDQIStore", "VersionedGeneratedModel": "CDQIStore",
        "ManagedObjectModel": "CDQIModel", "EntityDescription": "CDQIModel", "AttributeDescription": "CDQIModel",
        "RelationshipDescription": "CDQIModel", "FetchedPropertyDescription": "CDQIModel",
        "FetchRequestTemplate": "CDQIModel", "FetchIndex": "CDQIModel", "UniquenessConstraint": "CDQIModel",
        "CompositeDescription": "CDQIModel", "ModelConfiguration": "CDQIModel",
        "String": "Swift", "Int": "Swift", "Set": "Swift", "Array": "Swift", "Int16": "Swift", "Int32": "Swift",
        "Int64": "Swift", "Double": "Swift", "Float": "Swift", "Bool": "Swift",
        "Decimal": "Foundation", "Date": "Foundation", "Data": "Foundation", "UUID": "Foundation", "URL": "Foundation",
    ]

    /// The names of ``objectTypeModules``.
    static var objectTypes: Set<String> { Set(objectTypeModules.keys) }

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
