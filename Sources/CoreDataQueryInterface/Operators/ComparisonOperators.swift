import CDQIPredicate

extension ScalarAttribute {
    /// The key path of this proxy as an expression.
    var cdqiExpression: ExpressionNode { .keyPath(cdqiKeyPath) }

    func cdqiCompare<V: TypedExpressionConvertible>(_ op: ComparisonOperator, _ value: V) -> PredicateNode {
        .comparison(cdqiExpression, op, .constant(value.cdqiStoredValue))
    }
}

/// `attribute == value`, typed: the value must have the attribute's value type.
public func == <V: TypedExpressionConvertible>(lhs: ScalarAttribute<V>, rhs: V) -> PredicateNode {
    lhs.cdqiCompare(.equalTo, rhs)
}

/// `attribute != value`, typed.
public func != <V: TypedExpressionConvertible>(lhs: ScalarAttribute<V>, rhs: V) -> PredicateNode {
    lhs.cdqiCompare(.notEqualTo, rhs)
}

/// `attribute < value`, typed.
public func < <V: TypedExpressionConvertible>(lhs: ScalarAttribute<V>, rhs: V) -> PredicateNode {
    lhs.cdqiCompare(.lessThan, rhs)
}

/// `attribute <= value`, typed.
public func <= <V: TypedExpressionConvertible>(lhs: ScalarAttribute<V>, rhs: V) -> PredicateNode {
    lhs.cdqiCompare(.lessThanOrEqual, rhs)
}

/// `attribute > value`, typed.
public func > <V: TypedExpressionConvertible>(lhs: ScalarAttribute<V>, rhs: V) -> PredicateNode {
    lhs.cdqiCompare(.greaterThan, rhs)
}

/// `attribute >= value`, typed.
public func >= <V: TypedExpressionConvertible>(lhs: ScalarAttribute<V>, rhs: V) -> PredicateNode {
    lhs.cdqiCompare(.greaterThanOrEqual, rhs)
}

/// Both predicates hold.
public func && (lhs: PredicateNode, rhs: PredicateNode) -> PredicateNode { .and([lhs, rhs]) }

/// Either predicate holds.
public func || (lhs: PredicateNode, rhs: PredicateNode) -> PredicateNode { .or([lhs, rhs]) }

/// The predicate does not hold.
public prefix func ! (predicate: PredicateNode) -> PredicateNode { .not(predicate) }

/// `attribute == nil` (or an optional value): NULL when the value is `nil`.
public func == <V: TypedExpressionConvertible>(lhs: ScalarAttribute<V>, rhs: V?) -> PredicateNode {
    .comparison(lhs.cdqiExpression, .equalTo, .constant(rhs?.cdqiStoredValue ?? .null))
}

/// `attribute != nil` (or an optional value).
public func != <V: TypedExpressionConvertible>(lhs: ScalarAttribute<V>, rhs: V?) -> PredicateNode {
    .comparison(lhs.cdqiExpression, .notEqualTo, .constant(rhs?.cdqiStoredValue ?? .null))
}

/// `attribute == [a, b]`: `attribute IN {a, b}`.
public func == <V: TypedExpressionConvertible>(lhs: ScalarAttribute<V>, rhs: [V]) -> PredicateNode {
    let values = rhs.map { ExpressionNode.constant($0.cdqiStoredValue) }
    return .comparison(lhs.cdqiExpression, .in, ExpressionNode(kind: .constantCollection(values, ordered: true)))
}

/// `attribute != [a, b]`: `NOT attribute IN {a, b}`.
public func != <V: TypedExpressionConvertible>(lhs: ScalarAttribute<V>, rhs: [V]) -> PredicateNode {
    .not(lhs == rhs)
}
