import CDQIPredicate

/// Something that stands for an expression the store evaluates: a proxy's key path
/// (`department.name`), an aggregate over a to-many path (`employees.@count`), a subquery.
///
/// Every proxy conforms (through ``AttributeProxy``), which is what lets any proxy be compared with
/// `nil`. Plain Swift values are not expressions: they conform to ``TypedExpressionConvertible``
/// instead and become constants on the right of a comparison.
public protocol ExpressionConvertible {
    /// The expression, as the predicate AST holds it.
    var cdqiExpression: ExpressionNode { get }
}

/// An expression whose values compare as `CDQIComparisonType`: what may stand on the left of a typed
/// comparison (`$0.salary > 5`, `$0.employees.cdqiCount() >= 2`, `$0.department == department`).
///
/// A comparison compiles only when both sides have the same comparison type, so comparing a String
/// attribute with a number does not compile. The comparison types are:
/// `NSNumber` for every integer, floating-point and decimal type, `String`, `Bool`, `Date`, `Data`,
/// `UUID`, `URL`, and ``ManagedObject`` for entity proxies, managed objects and object IDs.
public protocol TypedExpression: ExpressionConvertible {
    /// The type the values of the expression compare as (`NSNumber` for every number).
    associatedtype CDQIComparisonType
}
