import CDQIPredicate

/// `proxy == nil`: works on every proxy (attributes, transformables, to-one entity proxies) and on
/// aggregates.
public func == (lhs: some ExpressionConvertible, rhs: _OptionalNilComparisonType) -> PredicateNode {
    lhs.cdqiCompare(.equalTo, .null)
}

/// `proxy != nil`.
public func != (lhs: some ExpressionConvertible, rhs: _OptionalNilComparisonType) -> PredicateNode {
    lhs.cdqiCompare(.notEqualTo, .null)
}
