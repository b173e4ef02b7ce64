import CDQIModel
import CDQIPredicate

/// The kind of a value (predicate-language.md §3.2): values of different kinds are never equal and
/// never ordered, so the SQL compiler decides such comparisons itself instead of leaving them to
/// SQLite's type affinity.
package enum ValueKind: Hashable {
    /// A number; `isInteger` decides SQL arithmetic (integer division or REAL).
    case number(isInteger: Bool)
    case string
    case date
    case data
    case uuid
    case uri
    /// A managed object of the hierarchy stored in the given table.
    case object(table: String)

    /// Whether two kinds can be compared (numbers with numbers whatever their precision).
    package func isComparable(with other: ValueKind) -> Bool {
        switch (self, other) {
        case (.number, .number): true
        default: self == other
        }
    }

    /// Whether the ordering operators apply (objects have no order).
    package var isOrdered: Bool {
        if case .object = self { return false }
        return true
    }

    package var isString: Bool { self == .string }

    /// The kind of an attribute's values, or `nil` for types a fetch cannot compare (Transformable
    /// holds opaque bytes: only `== nil`, `!= nil` and equality with data work).
    package init?(attributeType: AttributeType) {
        switch attributeType {
        case .integer16, .integer32, .integer64, .boolean: self = .number(isInteger: true)
        case .double, .float, .decimal: self = .number(isInteger: false)
        case .string: self = .string
        case .date: self = .date
        case .binaryData, .transformable: self = .data
        case .uuid: self = .uuid
        case .uri: self = .uri
        case .objectID, .undefined, .composite: return nil
        }
    }

    /// The kind of a constant, or `nil` for nil.
    package init?(constant: StoredValue) {
        switch constant {
        case .null: return nil
        case .integer, .bool: self = .number(isInteger: true)
        case .double, .decimal: self = .number(isInteger: false)
        case .string: self = .string
        case .date: self = .date
        case .data: self = .data
        case .uuid: self = .uuid
        case .uri: self = .uri
        case .objectID: self = .object(table: "")  // resolved against the schema where it is compared
        }
    }
}
