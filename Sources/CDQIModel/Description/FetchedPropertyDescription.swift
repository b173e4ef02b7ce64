/// A fetched property: a weak, one-way relationship computed by a fetch request.
public struct FetchedPropertyDescription: Sendable, Hashable, Codable {
    /// The property's name.
    public var name: String
    /// Whether the property is optional.
    public var isOptional: Bool = false
    /// The fetch request that computes it (its predicate may use `$FETCH_SOURCE`).
    public var fetchRequest: FetchRequestTemplate
    /// The property's `userInfo`.
    public var userInfo: UserInfo = [:]
    /// Where the property was declared.
    @NotCompared public var location: SourceLocation? = nil

    /// Creates a fetched property.
    public init(name: String, fetchRequest: FetchRequestTemplate) {
        self.name = name
        self.fetchRequest = fetchRequest
    }
}
