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

/// `toOneProxy == nil`: the entity proxy's own form. It exists beside the generic one so that a filter
/// closure such as `.filter { $0.department == nil }` resolves to the proxy comparison even where an
/// entity class has a property of the same name.
public func == (lhs: EntityAttribute, rhs: _OptionalNilComparisonType) -> PredicateNode {
    lhs.cdqiCompare(.equalTo, .null)
}

/// `toOneProxy != nil`.
public func != (lhs: EntityAttribute, rhs: _OptionalNilComparisonType) -> PredicateNode {
    lhs.cdqiCompare(.notEqualTo, .null)
}
