import CDQIPredicate

// The comparisons as free functions, CDQI's other spelling: `filter { lessThan($0.salary, 50000) }`.
// Each takes a value or an expression of the same comparison type, and `[cd]` options.

/// `lhs == rhs`.
public func equalTo<L: TypedExpression, R: TypedExpressionConvertible>(_ lhs: L, _ rhs: R, options: ComparisonOptions = []) -> PredicateNode
where L.CDQIComparisonType == R.CDQIComparisonType {
    lhs.cdqiEqualTo(rhs, options: options)
}

/// `lhs == rhs`, two expressions.
public func equalTo<L: TypedExpression, R: TypedExpression>(_ lhs: L, _ rhs: R, options: ComparisonOptions = []) -> PredicateNode
where L.CDQIComparisonType == R.CDQIComparisonType {
    lhs.cdqiEqualTo(rhs, options: options)
}

/// `lhs != rhs`.
public func notEqualTo<L: TypedExpression, R: TypedExpressionConvertible>(_ lhs: L, _ rhs: R, options: ComparisonOptions = []) -> PredicateNode
where L.CDQIComparisonType == R.CDQIComparisonType {
    lhs.cdqiNotEqualTo(rhs, options: options)
}

/// `lhs != rhs`, two expressions.
public func notEqualTo<L: TypedExpression, R: TypedExpression>(_ lhs: L, _ rhs: R, options: ComparisonOptions = []) -> PredicateNode
where L.CDQIComparisonType == R.CDQIComparisonType {
    lhs.cdqiNotEqualTo(rhs, options: options)
}

/// `lhs < rhs`.
public func lessThan<L: TypedExpression, R: TypedExpressionConvertible>(_ lhs: L, _ rhs: R, options: ComparisonOptions = []) -> PredicateNode
where L.CDQIComparisonType == R.CDQIComparisonType {
    lhs.cdqiLessThan(rhs, options: options)
}

/// `lhs < rhs`, two expressions.
public func lessThan<L: TypedExpression, R: TypedExpression>(_ lhs: L, _ rhs: R, options: ComparisonOptions = []) -> PredicateNode
where L.CDQIComparisonType == R.CDQIComparisonType {
    lhs.cdqiLessThan(rhs, options: options)
}

/// `lhs <= rhs`.
public func lessThanOrEqualTo<L: TypedExpression, R: TypedExpressionConvertible>(_ lhs: L, _ rhs: R, options: ComparisonOptions = []) -> PredicateNode
where L.CDQIComparisonType == R.CDQIComparisonType {
    lhs.cdqiLessThanOrEqualTo(rhs, options: options)
}

/// `lhs <= rhs`, two expressions.
public func lessThanOrEqualTo<L: TypedExpression, R: TypedExpression>(_ lhs: L, _ rhs: R, options: ComparisonOptions = []) -> PredicateNode
where L.CDQIComparisonType == R.CDQIComparisonType {
    lhs.cdqiLessThanOrEqualTo(rhs, options: options)
}

/// `lhs > rhs`.
public func greaterThan<L: TypedExpression, R: TypedExpressionConvertible>(_ lhs: L, _ rhs: R, options: ComparisonOptions = []) -> PredicateNode
where L.CDQIComparisonType == R.CDQIComparisonType {
    lhs.cdqiGreaterThan(rhs, options: options)
}

/// `lhs > rhs`, two expressions.
public func greaterThan<L: TypedExpression, R: TypedExpression>(_ lhs: L, _ rhs: R, options: ComparisonOptions = []) -> PredicateNode
where L.CDQIComparisonType == R.CDQIComparisonType {
    lhs.cdqiGreaterThan(rhs, options: options)
}

/// `lhs >= rhs`.
public func greaterThanOrEqualTo<L: TypedExpression, R: TypedExpressionConvertible>(_ lhs: L, _ rhs: R, options: ComparisonOptions = []) -> PredicateNode
where L.CDQIComparisonType == R.CDQIComparisonType {
    lhs.cdqiGreaterThanOrEqualTo(rhs, options: options)
}

/// `lhs >= rhs`, two expressions.
public func greaterThanOrEqualTo<L: TypedExpression, R: TypedExpression>(_ lhs: L, _ rhs: R, options: ComparisonOptions = []) -> PredicateNode
where L.CDQIComparisonType == R.CDQIComparisonType {
    lhs.cdqiGreaterThanOrEqualTo(rhs, options: options)
}

/// `lhs BETWEEN {low, high}`: both bounds included.
public func between<L: TypedExpression, R: TypedExpressionConvertible>(_ lhs: L, _ low: R, _ high: R) -> PredicateNode
where L.CDQIComparisonType == R.CDQIComparisonType {
    lhs.cdqiBetween(low, and: high)
}

/// `lhs IN {values…}`.
public func among<L: TypedExpression, R: TypedExpressionConvertible>(_ lhs: L, _ values: [R], options: ComparisonOptions = []) -> PredicateNode
where L.CDQIComparisonType == R.CDQIComparisonType {
    lhs.cdqiAmong(values, options: options)
}
