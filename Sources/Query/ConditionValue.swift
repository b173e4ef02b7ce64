import CDQIPredicate
import Foundation

/// Comparisons of a key with a value, built as predicate nodes directly: the same nodes the format
/// `"%K == %@"` parses to, without parsing a string for every condition.
enum ConditionValue {
    /// `key <op> value`.
    static func comparison(_ key: String, _ op: ComparisonOperator, _ value: Any) throws(PredicateParseError) -> PredicateNode {
        .comparison(.keyPath(key), op, try expression(for: value))
    }

    /// The constant a value stands for, as a `%@` argument: the common attribute types directly, any
    /// other value through the format-string parser's own conversion (which reports an unsupported
    /// type as a ``PredicateParseError``).
    static func expression(for value: Any) throws(PredicateParseError) -> ExpressionNode {
        if let constant = commonConstant(value) { return constant }
        return try ExpressionNode(format: "%@", argumentArray: [value])
    }

    /// The constant of a value of a common attribute type, converted as a `%@` argument is; `nil` for
    /// other values.
    static func commonConstant(_ value: Any) -> ExpressionNode? {
        switch value {
        case let string as String: return .constant(.string(string))
        case let int as Int: return .constant(.integer(Int64(int)))
        case let int as Int64: return .constant(.integer(int))
        case let int as Int32: return .constant(.integer(Int64(int)))
        case let int as Int16: return .constant(.integer(Int64(int)))
        case let double as Double: return .constant(.double(double))
        case let bool as Bool: return .constant(.bool(bool))
        case let date as Date: return .constant(.date(date))
        case let decimal as Decimal: return .constant(.decimal(decimal))
        case let uuid as UUID: return .constant(.uuid(uuid))
        default: return nil
        }
    }
}
