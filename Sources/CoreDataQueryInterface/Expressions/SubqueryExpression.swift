import CDQIPredicate

/// `SUBQUERY(collection, $x, predicate)`: the related objects of a to-many path that satisfy a
/// predicate. Its count is what filters compare:
///
/// ```swift
/// // Departments with more than two employees earning over 100000.
/// Query.from(Department.self).filter { subquery($0.employees) { $0.salary > 100_000 }.cdqiCount() > 2 }
/// ```
///
/// The closure receives the destination entity's proxy rooted at the subquery's variable, so its key
/// paths read `$x.salary`. Subqueries nest: the inner ones use `$x2`, `$x3`, …
public struct SubqueryExpression: ExpressionConvertible, Sendable {
    /// The `SUBQUERY(…)` expression.
    public let cdqiExpression: ExpressionNode

    /// The number of objects the subquery selects: `SUBQUERY(…).@count`.
    public func cdqiCount() -> ComputedExpression<Int64> {
        ComputedExpression(.keyPath([.collectionOperator(.count)], on: cdqiExpression))
    }
}

/// An expression the store computes (such as a subquery's count), whose value has the Swift type
/// `Value`; it compares as `Value` does.
public struct ComputedExpression<Value>: ExpressionConvertible, Sendable {
    /// The expression.
    public let cdqiExpression: ExpressionNode

    /// Wraps `expression`, whose values have the type `Value`.
    public init(_ expression: ExpressionNode) {
        cdqiExpression = expression
    }
}

extension ComputedExpression: TypedExpression where Value: TypedExpressionConvertible {
    /// The comparison type of `Value`.
    public typealias CDQIComparisonType = Value.CDQIComparisonType
}

/// How deep the subquery being built is, which picks its variable's name.
enum SubqueryNesting {
    @TaskLocal static var depth = 0

    /// `x` at the top, `x2`, `x3`, … inside other subqueries.
    static var variableName: String { depth == 0 ? "x" : "x\(depth + 1)" }
}

extension Subqueryable {
    /// `SUBQUERY(self, $x, predicate)`, the predicate built by `build` from the destination's proxy
    /// rooted at `$x`.
    public func cdqiSubquery(_ build: (Self) -> PredicateNode) -> SubqueryExpression {
        let variable = SubqueryNesting.variableName
        let element = Self(key: "$" + variable, parent: nil)
        let predicate = SubqueryNesting.$depth.withValue(SubqueryNesting.depth + 1) { build(element) }
        return SubqueryExpression(
            cdqiExpression: ExpressionNode(kind: .subquery(collection: cdqiExpression, variable: variable, predicate: predicate)))
    }

    /// The number of related objects that satisfy `build`'s predicate: `SUBQUERY(…).@count`.
    public func cdqiSubqueryCount(_ build: (Self) -> PredicateNode) -> ComputedExpression<Int64> {
        cdqiSubquery(build).cdqiCount()
    }
}

/// `SUBQUERY(collection, $x, predicate)`; see ``SubqueryExpression``.
public func subquery<P: Subqueryable>(_ collection: P, _ build: (P) -> PredicateNode) -> SubqueryExpression {
    collection.cdqiSubquery(build)
}

/// `SUBQUERY(collection, $x, predicate).@count`: `subqueryCount($0.employees) { $0.salary > 1 } > 2`.
public func subqueryCount<P: Subqueryable>(_ collection: P, _ build: (P) -> PredicateNode) -> ComputedExpression<Int64> {
    collection.cdqiSubquery(build).cdqiCount()
}
