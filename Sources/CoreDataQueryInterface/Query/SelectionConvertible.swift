import CDQIStore

/// Something a query can select: a key path written as a string, a proxy, or an aggregate.
///
/// ```swift
/// Query.from(Employee.self).select("lastName", "department.name")      // strings
/// Query.from(Employee.self).select { [$0.lastName, $0.salary.cdqiMax()] } // proxies and aggregates
/// ```
public protocol SelectionConvertible {
    /// The column this value selects, with its result name.
    var cdqiSelection: QuerySelection { get }
}

/// Something a typed query can select: it also knows the Swift type of its values.
///
/// Proxies of attributes select their value type (`StringAttribute` → `String`), proxies of entities
/// (to-one relationships) select ``ManagedObjectID``, aggregates their `Value`. Every column of a typed
/// result is optional, because SQL can yield NULL for any of them: an optional attribute, a path through
/// a nil relationship, `min`/`max`/`sum`/`average` of a group whose values are all NULL.
///
/// Its metatype is `Sendable` (a conformance may not be isolated to an actor), so that a typed query
/// can be run in another task (`all(in:)`).
public protocol QuerySelectable: SelectionConvertible, SendableMetatype {
    /// The Swift type of the column's non-NULL values.
    associatedtype CDQIValue: QueryResultValue
}

extension String: SelectionConvertible {
    /// The key path this string spells, named by CDQI's rule (`"department.name"` → `departmentName`).
    public var cdqiSelection: QuerySelection { QuerySelection(keyPath: self) }
}

extension AttributeProxy: SelectionConvertible {
    /// The proxy's key path, named ``cdqiName``; the root proxy (`$0`) selects the object's ID
    /// (``QuerySelection/evaluatedObject``).
    public var cdqiSelection: QuerySelection { QuerySelection(keyPath: cdqiKeyPath, name: cdqiName) }
}

extension ScalarAttribute: QuerySelectable where Value: QueryResultValue {
    /// The attribute's value type.
    public typealias CDQIValue = Value
}

extension EntityAttribute: QuerySelectable {
    /// A to-one relationship selects the related object's ID; the root proxy (`$0`) the object's own.
    public typealias CDQIValue = ManagedObjectID
}

extension AggregateExpression: SelectionConvertible {
    /// The aggregate function over its key path (`max:(salary)`), named ``cdqiName`` (`salaryMax`, or the alias).
    public var cdqiSelection: QuerySelection { QuerySelection(name: cdqiName, expression: selectionExpression) }
}

extension AggregateExpression: QuerySelectable where Value: QueryResultValue {
    /// The aggregate's result type.
    public typealias CDQIValue = Value
}
