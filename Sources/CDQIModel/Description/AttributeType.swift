/// The type of an attribute, as Core Data's `NSAttributeType` defines it.
///
/// The raw value is the spelling of the `attributeType` XML attribute in a model file
/// (`"Integer 16"`, `"Binary"`, …); ``undefined`` is what an absent `attributeType` means.
public enum AttributeType: String, Sendable, Hashable, Codable, CaseIterable {
    case undefined = "Undefined"
    case integer16 = "Integer 16"
    case integer32 = "Integer 32"
    case integer64 = "Integer 64"
    case decimal = "Decimal"
    case double = "Double"
    case float = "Float"
    case string = "String"
    case boolean = "Boolean"
    case date = "Date"
    case binaryData = "Binary"
    case uuid = "UUID"
    case uri = "URI"
    case transformable = "Transformable"
    case objectID = "ObjectID"
    case composite = "Composite"

    /// Core Data's numeric `NSAttributeType` code (100 for Integer 16, 1800 for Transformable, …).
    public var code: Int {
        switch self {
        case .undefined: 0
        case .integer16: 100
        case .integer32: 200
        case .integer64: 300
        case .decimal: 400
        case .double: 500
        case .float: 600
        case .string: 700
        case .boolean: 800
        case .date: 900
        case .binaryData: 1000
        case .uuid: 1100
        case .uri: 1200
        case .transformable: 1800
        case .objectID: 2000
        case .composite: 2100
        }
    }

    /// Creates the type for a numeric `NSAttributeType` code, or `nil` for an unknown code.
    public init?(code: Int) {
        guard let match = AttributeType.allCases.first(where: { $0.code == code }) else { return nil }
        self = match
    }

    /// Whether values of this type are numbers (integers, decimals and floating point).
    public var isNumeric: Bool {
        switch self {
        case .integer16, .integer32, .integer64, .decimal, .double, .float: true
        default: false
        }
    }

    /// Whether values of this type are integers.
    public var isInteger: Bool {
        switch self {
        case .integer16, .integer32, .integer64: true
        default: false
        }
    }
}
