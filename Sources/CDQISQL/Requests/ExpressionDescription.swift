import CDQIModel
import CDQIPredicate

/// A computed column of a dictionary fetch (Core Data's `NSExpressionDescription`): a name (its key in
/// each result), an expression, and the type its values have.
///
/// ```swift
/// // SELECT MAX(t0.ZSALARY) … GROUP BY …, returned under "salaryMax"
/// ExpressionDescription(name: "salaryMax", expression: try ExpressionNode(format: "max:(salary)"), resultType: .integer32)
/// ```
public struct ExpressionDescription: Sendable, Hashable {
    /// The key of the value in each result dictionary.
    public var name: String
    /// The expression: a key path, or an aggregate function (`count:` `sum:` `min:` `max:` `average:`)
    /// of a key path, or arithmetic on those.
    public var expression: ExpressionNode
    /// The type of the values, or `nil` to infer it from the expression.
    public var resultType: AttributeType?

    /// Creates an expression description.
    public init(name: String, expression: ExpressionNode, resultType: AttributeType? = nil) {
        self.name = name
        self.expression = expression
        self.resultType = resultType
    }
}

/// One column of a dictionary fetch: a key path (its key is the key path as written) or a computed
/// expression.
public enum FetchedProperty: Sendable, Hashable, ExpressibleByStringLiteral {
    /// An attribute, a to-one relationship (its value is the object's ID), or a key path through
    /// to-one relationships (`"department.name"`).
    case keyPath(String)
    /// A computed column.
    case expression(ExpressionDescription)

    /// A key path, written as a string literal.
    public init(stringLiteral value: String) {
        self = .keyPath(value)
    }

    /// The key of the value in each result dictionary.
    public var name: String {
        switch self {
        case .keyPath(let path): path
        case .expression(let description): description.name
        }
    }
}
