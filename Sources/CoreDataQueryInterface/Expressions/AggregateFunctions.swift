import Foundation

// The aggregates as free functions, CDQI's other spelling: `count($0.employees)`,
// `max($0.salary, alias: "top")`, `alias(max($0.salary), name: "top")`. They return the same
// ``AggregateExpression`` as the `cdqi…()` methods.

/// The number of related objects (or of rows, in a selection).
public func count(_ proxy: EntityAttribute, alias: String? = nil) -> AggregateExpression<Int64> {
    proxy.cdqiCount(alias: alias)
}

/// The number of values.
public func count<V>(_ proxy: ScalarAttribute<V>, alias: String? = nil) -> AggregateExpression<Int64> {
    proxy.cdqiCount(alias: alias)
}

/// The sum of the values.
public func sum<V: AdditiveArithmetic>(_ proxy: ScalarAttribute<V>, alias: String? = nil) -> AggregateExpression<V> {
    proxy.cdqiSum(alias: alias)
}

/// The mean of integer values, as a `Double`.
public func average<V: BinaryInteger>(_ proxy: ScalarAttribute<V>, alias: String? = nil) -> AggregateExpression<Double> {
    proxy.cdqiAverage(alias: alias)
}

/// The mean of floating-point values, as a `Double`.
public func average<V: BinaryFloatingPoint>(_ proxy: ScalarAttribute<V>, alias: String? = nil) -> AggregateExpression<Double> {
    proxy.cdqiAverage(alias: alias)
}

/// The mean of decimal values, as a `Decimal`.
public func average(_ proxy: ScalarAttribute<Decimal>, alias: String? = nil) -> AggregateExpression<Decimal> {
    proxy.cdqiAverage(alias: alias)
}

/// The smallest value.
public func min<V: Comparable>(_ proxy: ScalarAttribute<V>, alias: String? = nil) -> AggregateExpression<V> {
    proxy.cdqiMin(alias: alias)
}

/// The largest value.
public func max<V: Comparable>(_ proxy: ScalarAttribute<V>, alias: String? = nil) -> AggregateExpression<V> {
    proxy.cdqiMax(alias: alias)
}

/// The aggregate with its result named `name` in a selection.
public func alias<V>(_ aggregate: AggregateExpression<V>, name: String) -> AggregateExpression<V> {
    aggregate.alias(name)
}
