import CDQIPredicate

extension Sequence where Element: TypedExpressionConvertible {
    /// The values as a constant collection (`{1, 2}`), the right side of `IN`.
    var cdqiCollectionExpression: ExpressionNode {
        ExpressionNode(kind: .constantCollection(map(\.cdqiConstantExpression), ordered: true))
    }
}

/// `expression == [a, b]`: `expression IN {a, b}`.
public func == <L: TypedExpression, R: TypedExpressionConvertible>(lhs: L, rhs: [R]) -> PredicateNode
where L.CDQIComparisonType == R.CDQIComparisonType {
    lhs.cdqiCompare(.in, rhs.cdqiCollectionExpression)
}

/// `expression != [a, b]`: `NOT expression IN {a, b}`.
public func != <L: TypedExpression, R: TypedExpressionConvertible>(lhs: L, rhs: [R]) -> PredicateNode
where L.CDQIComparisonType == R.CDQIComparisonType {
    .not(lhs == rhs)
}
