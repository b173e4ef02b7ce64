/// The proxy of a Transformable attribute: a value the store keeps as transformed data.
///
/// A store cannot look inside a transformed value, so queries can only test it for `nil` and compare
/// it with another value as a whole (the operators for that come with the query API). The proxy is
/// not generic because a model's `customClassName` (`"[String]"`, `"UIColor"`, …) is not always a
/// type the generated code can name.
///
/// Every member starts with `cdqi`, as in ``EntityAttribute``.
public final class TransformableAttribute: KeyPathExpressionConvertible {
    /// The key of this attribute in its parent, or `nil` for a root.
    public let cdqiKey: String?

    /// The proxy of the entity that holds the attribute, or `nil` for a root (weak, as in
    /// ``EntityAttribute/cdqiParent``).
    public private(set) weak var cdqiParent: EntityAttribute?

    /// The dotted key path from the root of the query (`"profile.avatar"`).
    public let cdqiKeyPath: String

    /// The name a dictionary result gives this key path (`"profile.avatar"` → `"profileAvatar"`).
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
