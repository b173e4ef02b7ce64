import CDQIPredicate

/// An aggregate compares, inside a filter, as its value type does: `$0.employees.cdqiCount() > 3`
/// is `employees.@count > 3`, `$0.employees.salary.cdqiMax() >= 100000` is
/// `employees.@max.salary >= 100000`.
extension AggregateExpression: ExpressionConvertible, TypedExpression where Value: TypedExpressionConvertible {
    /// The aggregate's comparison type is its value's.
    public typealias CDQIComparisonType = Value.CDQIComparisonType

    /// The aggregate inside a predicate (``predicateExpression``).
    public var cdqiExpression: ExpressionNode { predicateExpression }
}
