/// The proxy of an attribute whose values are of type `Value`: a string, a number, a date, data, …
///
/// Generated code uses it through the typealiases (``StringAttribute``, ``Integer32Attribute``, …).
/// `Value` is the Swift type the attribute's values have, there for the query operators to type-check
/// comparisons with (`$0.salary > "high"` should not compile).
///
/// Every member starts with `cdqi`, as in ``EntityAttribute``.
public final class ScalarAttribute<Value>: KeyPathExpressionConvertible {
    /// The key of this attribute in its parent (`"name"`), or `nil` for a root (the value itself, as
    /// in a subquery over a collection of values).
    public let cdqiKey: String?

    /// The proxy of the entity that holds the attribute, or `nil` for a root.
    ///
    /// Weak for the same reason as ``EntityAttribute/cdqiParent``; ``cdqiKeyPath`` does not need it.
    public private(set) weak var cdqiParent: EntityAttribute?

    /// The dotted key path from the root of the query (`"department.name"`).
    public let cdqiKeyPath: String

    /// The name a dictionary result gives this key path (`"department.name"` → `"departmentName"`).
    public var cdqiName: String { KeyPathNaming.name(forKeyPath: cdqiKeyPath) }

    /// Creates the proxy for the attribute `key` of `parent`.
    ///
    /// - Parameters:
    ///   - key: The attribute's key in the parent entity.
    ///   - parent: The proxy of the entity that holds the attribute.
    public required init(key: String? = nil, parent: EntityAttribute? = nil) {
        cdqiKey = key
        cdqiParent = parent
        cdqiKeyPath = KeyPathNaming.keyPath(key: key, parentPath: parent?.cdqiKeyPath)
    }
}
