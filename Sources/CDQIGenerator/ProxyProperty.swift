/// One property of a generated proxy: an attribute or a relationship of the entity.
public struct ProxyProperty: Sendable, Hashable {
    /// What the property's type is.
    public enum Kind: Sendable, Hashable {
        /// A runtime proxy type, such as `StringAttribute`.
        case runtime(String)
        /// The proxy of another entity (a relationship's destination).
        case entity(String)
    }

    /// The Swift name of the property, without backticks.
    public var name: String
    /// The key the property stands for in the model (differs from ``name`` only when the model's name
    /// is not a valid Swift identifier).
    public var key: String
    /// The property's proxy type.
    public var kind: Kind

    /// Creates a property.
    public init(name: String, key: String, kind: Kind) {
        self.name = name
        self.key = key
        self.kind = kind
    }

    /// The type name, unqualified.
    public var typeName: String {
        switch kind {
        case .runtime(let name), .entity(let name): name
        }
    }
}
