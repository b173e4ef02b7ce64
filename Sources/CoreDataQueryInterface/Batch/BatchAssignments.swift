import CDQIPredicate
import CDQIStore

/// The new values of a typed batch update (``Query/batchUpdate(managedObjectContext:_:)``), set through
/// the entity's attribute proxies so that a value of the wrong type does not compile:
///
/// ```swift
/// try context.from(Employee.self)
///     .filter { $0.salary < 100_000 }
///     .batchUpdate { employee, update in
///         update.set(employee.lastName, to: "Smith")
///         update.increase(employee.salary, by: 5_000)
///     }
/// ```
///
/// Only attributes of the entity itself can be set (not `department.name`), as in Core Data; setting one
/// twice keeps the last value.
public struct BatchAssignments {
    /// The new values by attribute name.
    private(set) var values: [String: BatchUpdateValue] = [:]

    init() {}

    /// Sets `attribute` to `value` (`nil` for NULL) in every matched row.
    public mutating func set<Value: Sendable>(_ attribute: ScalarAttribute<Value>, to value: Value?) {
        values[attribute.cdqiKeyPath] = .value(value)
    }

    /// Sets `attribute` to `expression`, evaluated by SQLite for each row over the row's own attributes
    /// (`ExpressionNode(format: "salary * 2")`).
    public mutating func set<Value>(_ attribute: ScalarAttribute<Value>, to expression: ExpressionNode) {
        values[attribute.cdqiKeyPath] = .expression(expression)
    }

    /// Adds `amount` to `attribute` in every matched row (a NULL stays NULL, as in SQL).
    public mutating func increase<Value: BatchArithmeticValue>(_ attribute: ScalarAttribute<Value>, by amount: Value) {
        values[attribute.cdqiKeyPath] = .expression(
            .function(.add, [.keyPath(attribute.cdqiKeyPath), .constant(amount.cdqiBatchConstant)]))
    }

    /// Multiplies `attribute` by `factor` in every matched row (a NULL stays NULL).
    public mutating func multiply<Value: BatchArithmeticValue>(_ attribute: ScalarAttribute<Value>, by factor: Value) {
        values[attribute.cdqiKeyPath] = .expression(
            .function(.multiply, [.keyPath(attribute.cdqiKeyPath), .constant(factor.cdqiBatchConstant)]))
    }
}
