/// A relationship of an entity, as declared in the model file.
public struct RelationshipDescription: Sendable, Hashable, Codable {
    /// The relationship's name.
    public var name: String
    /// The name of the destination entity.
    public var destinationEntityName: String
    /// The name of the inverse relationship on the destination, if any.
    public var inverseName: String?
    /// The entity that declares the inverse (the model writes it beside ``inverseName``).
    public var inverseEntityName: String?
    /// Whether the relationship may be empty (nil for a to-one).
    public var isOptional: Bool = false
    /// Whether the relationship is transient.
    public var isTransient: Bool = false
    /// Whether the relationship holds many objects.
    public var isToMany: Bool = false
    /// Whether a to-many relationship keeps its objects in order (an ordered set).
    public var isOrdered: Bool = false
    /// The minimum number of objects (`minCount`), or `nil` when the model does not limit it.
    public var minCount: Int?
    /// The maximum number of objects (`maxCount`), or `nil` when unlimited. Xcode writes 1 on to-ones.
    public var maxCount: Int?
    /// What deleting the source does to the destination.
    public var deleteRule: DeleteRule = .nullify
    /// The legacy index flag (`indexed`), seen on to-ones.
    public var isIndexed: Bool = false
    /// Whether Spotlight indexes the relationship (`spotlightIndexingEnabled`).
    public var isIndexedBySpotlight: Bool = false
    /// The old macOS external record flag (`storedInTruthFile`).
    public var isStoredInExternalRecord: Bool = false
    /// Xcode's renaming ID (`elementID`).
    public var renamingIdentifier: String?
    /// The free string mixed into the version hash (`versionHashModifier`).
    public var versionHashModifier: String?
    /// The relationship's `userInfo`.
    public var userInfo: UserInfo = [:]
    /// Where the relationship was declared.
    @NotCompared public var location: SourceLocation? = nil

    /// Creates a relationship; every other setting takes its model default.
    public init(
        name: String,
        destinationEntityName: String,
        inverseName: String? = nil,
        inverseEntityName: String? = nil,
        isToMany: Bool = false
    ) {
        self.name = name
        self.destinationEntityName = destinationEntityName
        self.inverseName = inverseName
        self.inverseEntityName = inverseEntityName
        self.isToMany = isToMany
    }
}
