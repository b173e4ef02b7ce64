/// A uniqueness constraint: properties whose values, taken together, no two objects may share.
public struct UniquenessConstraint: Sendable, Hashable, Codable {
    /// The constrained property names, in order.
    public var properties: [String]
    /// Where the constraint was declared.
    @NotCompared public var location: SourceLocation? = nil

    /// Creates a constraint.
    public init(properties: [String]) {
        self.properties = properties
    }
}
