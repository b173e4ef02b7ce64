import CDQIPredicate

// Typed comparisons. The left side is an expression (a proxy, an aggregate, a subquery count); the
// right side a value or another expression of the same comparison type. `$0.salary > 5`,
// `$0.salary > limit` (any integer width), `$0.salary > $0.bonus` and `$0.employees.cdqiCount() > 3`
// compile; `$0.lastName == 5` does not.

extension ExpressionConvertible {
    /// `self op rhs`, with options.
    func cdqiCompare(_ op: ComparisonOperator, _ rhs: ExpressionNode, options: ComparisonOptions = []) -> PredicateNode {
        .comparison(cdqiExpression, op, rhs, options: options)
    }
}

/// `expression == value`: `salary == 5`.
public func == <L: TypedExpression, R: TypedExpressionConvertible>(lhs: L, rhs: R) -> PredicateNode
where L.CDQIComparisonType == R.CDQIComparisonType {
    lhs.cdqiCompare(.equalTo, rhs.cdqiConstantExpression)
}

/// `expression != value`: `salary != 5`.
public func != <L: TypedExpression, R: TypedExpressionConvertible>(lhs: L, rhs: R) -> PredicateNode
where L.CDQIComparisonType == R.CDQIComparisonType {
    lhs.cdqiCompare(.notEqualTo, rhs.cdqiConstantExpression)
}

/// `expression < value`.
public func < <L: TypedExpression, R: TypedExpressionConvertible>(lhs: L, rhs: R) -> PredicateNode
where L.CDQIComparisonType == R.CDQIComparisonType {
    lhs.cdqiCompare(.lessThan, rhs.cdqiConstantExpression)
}

/// `expression <= value`.
public func <= <L: TypedExpression, R: TypedExpressionConvertible>(lhs: L, rhs: R) -> PredicateNode
where L.CDQIComparisonType == R.CDQIComparisonType {
    lhs.cdqiCompare(.lessThanOrEqual, rhs.cdqiConstantExpression)
}

/// `expression > value`.
public func > <L: TypedExpression, R: TypedExpressionConvertible>(lhs: L, rhs: R) -> PredicateNode
where L.CDQIComparisonType == R.CDQIComparisonType {
    lhs.cdqiCompare(.greaterThan, rhs.cdqiConstantExpression)
}

/// `expression >= value`.
public func >= <L: TypedExpression, R: TypedExpressionConvertible>(lhs: L, rhs: R) -> PredicateNode
where L.CDQIComparisonType == R.CDQIComparisonType {
    lhs.cdqiCompare(.greaterThanOrEqual, rhs.cdqiConstantExpression)
}

/// `expression == expression`: two key paths (or aggregates) of the same comparison type.
public func == <L: TypedExpression, R: TypedExpression>(lhs: L, rhs: R) -> PredicateNode
where L.CDQIComparisonType == R.CDQIComparisonType {
    lhs.cdqiCompare(.equalTo, rhs.cdqiExpression)
}

/// `expression != expression`.
public func != <L: TypedExpression, R: TypedExpression>(lhs: L, rhs: R) -> PredicateNode
where L.CDQIComparisonType == R.CDQIComparisonType {
    lhs.cdqiCompare(.notEqualTo, rhs.cdqiExpression)
}

/// `expression < expression`: `salary < bonus`.
public func < <L: TypedExpression, R: TypedExpression>(lhs: L, rhs: R) -> PredicateNode
where L.CDQIComparisonType == R.CDQIComparisonType {
    lhs.cdqiCompare(.lessThan, rhs.cdqiExpression)
}

/// `expression <= expression`.
public func <= <L: TypedExpression, R: TypedExpression>(lhs: L, rhs: R) -> PredicateNode
where L.CDQIComparisonType == R.CDQIComparisonType {
    lhs.cdqiCompare(.lessThanOrEqual, rhs.cdqiExpression)
}

/// `expression > expression`.
public func > <L: TypedExpression, R: TypedExpression>(lhs: L, rhs: R) -> PredicateNode
where L.CDQIComparisonType == R.CDQIComparisonType {
    lhs.cdqiCompare(.greaterThan, rhs.cdqiExpression)
}

/// `expression >= expression`.
public func >= <L: TypedExpression, R: TypedExpression>(lhs: L, rhs: R) -> PredicateNode
where L.CDQIComparisonType == R.CDQIComparisonType {
    lhs.cdqiCompare(.greaterThanOrEqual, rhs.cdqiExpression)
}
