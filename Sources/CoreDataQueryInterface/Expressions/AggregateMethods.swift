import Foundation

// The aggregate methods of proxies. In a filter they aggregate over a to-many path
// (`$0.employees.cdqiCount() > 3`, `$0.employees.salary.cdqiAverage() > 50000.0`); in a selection
// they aggregate over the grouped rows (`select { $0.salary.cdqiMax() }`). Every one takes an
// optional `alias:` naming the result in a selection.

extension EntityAttribute {
    /// The number of related objects (`employees.@count`), or of rows in a selection.
    public func cdqiCount(alias: String? = nil) -> AggregateExpression<Int64> {
        AggregateExpression(.count, keyPath: cdqiKeyPath, alias: alias)
    }
}

extension ScalarAttribute {
    /// The number of values (`employees.salary.@count` in a filter; `count:(salary)` in a selection).
    public func cdqiCount(alias: String? = nil) -> AggregateExpression<Int64> {
        AggregateExpression(.count, keyPath: cdqiKeyPath, alias: alias)
    }
}

extension ScalarAttribute where Value: Comparable {
    /// The smallest value (`employees.@min.salary`, `min:(salary)`).
    public func cdqiMin(alias: String? = nil) -> AggregateExpression<Value> {
        AggregateExpression(.min, keyPath: cdqiKeyPath, alias: alias)
    }

    /// The largest value (`employees.@max.salary`, `max:(salary)`).
    public func cdqiMax(alias: String? = nil) -> AggregateExpression<Value> {
        AggregateExpression(.max, keyPath: cdqiKeyPath, alias: alias)
    }
}

extension ScalarAttribute where Value: AdditiveArithmetic {
    /// The sum of the values, of the attribute's own type (`employees.@sum.salary`, `sum:(salary)`).
    public func cdqiSum(alias: String? = nil) -> AggregateExpression<Value> {
        AggregateExpression(.sum, keyPath: cdqiKeyPath, alias: alias)
    }
}

extension ScalarAttribute where Value: BinaryInteger {
    /// The mean of the values, as a `Double` (`employees.@avg.salary`, `average:(salary)`).
    public func cdqiAverage(alias: String? = nil) -> AggregateExpression<Double> {
        AggregateExpression(.average, keyPath: cdqiKeyPath, alias: alias)
    }
}

extension ScalarAttribute where Value: BinaryFloatingPoint {
    /// The mean of the values, as a `Double`.
    public func cdqiAverage(alias: String? = nil) -> AggregateExpression<Double> {
        AggregateExpression(.average, keyPath: cdqiKeyPath, alias: alias)
    }
}

extension ScalarAttribute where Value == Decimal {
    /// The mean of the values, as a `Decimal`.
    public func cdqiAverage(alias: String? = nil) -> AggregateExpression<Decimal> {
        AggregateExpression(.average, keyPath: cdqiKeyPath, alias: alias)
    }
}
