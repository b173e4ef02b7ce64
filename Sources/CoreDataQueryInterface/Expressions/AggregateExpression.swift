import CDQIPredicate

/// The aggregate functions of queries: `count`, `sum`, `average`, `min`, `max`.
public enum AggregateFunction: String, Sendable, Hashable, CaseIterable {
    case count, sum, average, min, max

    /// The function as a selector of NSExpression's function language (`max:`).
    public var builtin: BuiltinFunction {
        switch self {
        case .count: .count
        case .sum: .sum
        case .average: .average
        case .min: .min
        case .max: .max
        }
    }

    /// The KVC collection operator with the same meaning over a to-many key path (`@max`).
    public var collectionOperator: CollectionOperator {
        switch self {
        case .count: .count
        case .sum: .sum
        case .average: .avg
        case .min: .min
        case .max: .max
        }
    }

    /// The suffix CDQI appends to a key path's name for the default result name (`salaryMax`).
    var nameSuffix: String {
        switch self {
        case .count: "Count"
        case .sum: "Sum"
        case .average: "Average"
        case .min: "Min"
        case .max: "Max"
        }
    }
}

/// An aggregate over a key path, as `$0.salary.cdqiMax()` or `max($0.salary)` build it.
///
/// The same value serves both places an aggregate appears:
/// - in a **selection** (`select { $0.salary.cdqiMax() }`), it is the function over the grouped rows
///   (``selectionExpression``: `max:(salary)`), and its result is named ``cdqiName`` (`salaryMax`, or
///   the alias given);
/// - in a **filter** on a to-many path (`filter { $0.employees.cdqiCount() > 3 }`), it is the KVC
///   collection operator over each object's related objects (``predicateExpression``:
///   `employees.@count`).
///
/// `Value` is the Swift type of the result: `Int64` for counts, the attribute's own type for `sum`,
/// `min` and `max`, `Double` for averages of numbers (`Decimal` for averages of decimals). Comparisons
/// with it are typed like comparisons with attributes.
public struct AggregateExpression<Value>: Sendable {
    /// The function.
    public let function: AggregateFunction
    /// The key path the function applies to (`"salary"`, `"employees"`, `"employees.salary"`).
    public let cdqiKeyPath: String
    /// The name a selection gives the result: the alias if one was given, otherwise the key path's
    /// name followed by the function's (`"salaryMax"`, `"departmentNameCount"`).
    public let cdqiName: String

    /// Creates an aggregate of `function` over `keyPath`, named `alias` or by CDQI's rule.
    public init(_ function: AggregateFunction, keyPath: String, alias: String? = nil) {
        self.function = function
        cdqiKeyPath = keyPath
        cdqiName = alias ?? (KeyPathNaming.name(forKeyPath: keyPath) + function.nameSuffix)
    }

    /// The same aggregate with the result named `name`.
    public func alias(_ name: String) -> AggregateExpression {
        AggregateExpression(function, keyPath: cdqiKeyPath, alias: name)
    }

    /// The aggregate as a selection expression: the function over the key path (`max:(salary)`).
    public var selectionExpression: ExpressionNode {
        .function(function.builtin, [.keyPath(cdqiKeyPath)])
    }

    /// The aggregate inside a predicate: the key path followed by the collection operator
    /// (`employees.@count`, `employees.@max.salary` for `employees.salary`).
    public var predicateExpression: ExpressionNode {
        var components = cdqiKeyPath.split(separator: ".").map { KeyPathComponent.key(String($0)) }
        if function == .count || components.count < 2 {
            components.append(.collectionOperator(function.collectionOperator))
        } else {
            components.insert(.collectionOperator(function.collectionOperator), at: components.count - 1)
        }
        return .keyPath(components)
    }
}
