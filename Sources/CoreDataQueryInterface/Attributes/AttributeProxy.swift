/// What every proxy is: a key in a parent proxy, and the key path and dictionary-result name that
/// follow from them. ``EntityAttribute``, ``ScalarAttribute`` and ``TransformableAttribute`` are its
/// subclasses; generated code never names it.
///
/// Every member starts with `cdqi`, so that model properties named `count`, `key`, `parent` or `max`
/// become ordinary properties of generated subclasses. Proxies are not `Sendable`: they are built and
/// used inside one query-building closure.
open class AttributeProxy: KeyPathExpressionConvertible {
    /// The key of this proxy in its parent (`"department"`), or `nil` for the root of a query (or, for
    /// an attribute, the value itself, as in a subquery over a collection of values).
    public let cdqiKey: String?

    /// The proxy this one was reached from, or `nil` for a root.
    ///
    /// The reference is weak: a parent owns its children through its lazy properties, and a strong
    /// reference back would make every proxy tree a retain cycle. ``cdqiKeyPath`` and ``cdqiName``
    /// are worked out when the proxy is created, so they stay right after the parent is gone.
    public private(set) weak var cdqiParent: EntityAttribute?

    /// The dotted key path from the root of the query (`"department.name"`); empty for a root.
    public let cdqiKeyPath: String

    /// The name a dictionary result gives this key path: the first component as it is, the following
    /// ones capitalised (`"department.manager"` → `"departmentManager"`).
    public var cdqiName: String { KeyPathNaming.name(forKeyPath: cdqiKeyPath) }

    /// Creates a proxy for the property `key` of `parent`, or a root proxy when both are `nil`.
    ///
    /// - Parameters:
    ///   - key: The property's key in the parent entity.
    ///   - parent: The proxy of the entity that holds the property.
    public required init(key: String? = nil, parent: EntityAttribute? = nil) {
        cdqiKey = key
        cdqiParent = parent
        cdqiKeyPath = KeyPathNaming.keyPath(key: key, parentPath: parent?.cdqiKeyPath)
    }
}
