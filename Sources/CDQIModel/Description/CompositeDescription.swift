/// A model-level composite type (`<composite>`, Xcode 15+): a named group of attributes that a
/// Composite attribute stores as one value.
public struct CompositeDescription: Sendable, Hashable, Codable {
    /// The composite's name.
    public var name: String
    /// Its attributes, which may themselves be composites.
    public var attributes: [AttributeDescription]
    /// Where the composite was declared.
    @NotCompared public var location: SourceLocation? = nil

    /// Creates a composite.
    public init(name: String, attributes: [AttributeDescription]) {
        self.name = name
        self.attributes = attributes
    }
}
