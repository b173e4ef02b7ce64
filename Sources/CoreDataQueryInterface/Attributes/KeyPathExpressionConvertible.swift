/// A proxy that stands for a key path of an entity: the base of everything a query can compare,
/// sort by or select.
///
/// Generated proxies (``EntityAttribute`` subclasses), ``ScalarAttribute`` and
/// ``TransformableAttribute`` all conform. The query operators build on this protocol, so anything
/// that can name its key path can take part in a predicate or an expression.
///
/// Every requirement starts with `cdqi`, so that model properties named `count`, `key` or `max` never
/// clash with it.
public protocol KeyPathExpressionConvertible: AnyObject {
    /// The key of this property in its parent (`"name"`), or `nil` for the root of a query.
    var cdqiKey: String? { get }
    /// The dotted key path from the root of the query (`"department.name"`); empty for the root.
    var cdqiKeyPath: String { get }
    /// The name a dictionary result gives this key path (`"departmentName"` for `"department.name"`).
    var cdqiName: String { get }
}
