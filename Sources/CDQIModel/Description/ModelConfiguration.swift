/// A named configuration: the subset of entities one persistent store holds.
public struct ModelConfiguration: Sendable, Hashable, Codable {
    /// The configuration's name.
    public var name: String
    /// The names of the entities it holds.
    public var memberEntityNames: [String]
    /// Whether the configuration is used with CloudKit (`usedWithCloudKit`).
    public var isUsedWithCloudKit: Bool = false
    /// Where the configuration was declared.
    @NotCompared public var location: SourceLocation? = nil

    /// Creates a configuration.
    public init(name: String, memberEntityNames: [String]) {
        self.name = name
        self.memberEntityNames = memberEntityNames
    }
}
