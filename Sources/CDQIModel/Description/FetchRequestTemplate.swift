/// A fetch request stored in the model: a model-level template, or the request of a fetched property.
public struct FetchRequestTemplate: Sendable, Hashable, Codable {
    /// What a fetch returns (`resultType`).
    public enum ResultType: Int, Sendable, Hashable, Codable, CaseIterable {
        /// Managed objects (the default; `resultType` absent or `0`).
        case managedObject = 0
        /// Object IDs (`1`).
        case managedObjectID = 1
        /// Dictionaries (`2`).
        case dictionary = 2
        /// A count (`4`).
        case count = 4
    }

    /// The template's name.
    public var name: String
    /// The name of the entity it fetches.
    public var entityName: String
    /// The predicate, in NSPredicate format, possibly with `$variables`.
    public var predicateString: String?
    /// The fetch limit, or `nil` for none.
    public var fetchLimit: Int?
    /// The batch size, or `nil` for none.
    public var fetchBatchSize: Int?
    /// What the fetch returns.
    public var resultType: ResultType = .managedObject
    /// `includeSubentities`, or `nil` when the model does not say (Core Data's default is `true`).
    public var includesSubentities: Bool?
    /// `includePropertyValues`, or `nil` when the model does not say.
    public var includesPropertyValues: Bool?
    /// `includesPendingChanges`, or `nil` when the model does not say.
    public var includesPendingChanges: Bool?
    /// `returnObjectsAsFaults`, or `nil` when the model does not say.
    public var returnsObjectsAsFaults: Bool?
    /// `returnDistinctResults`, or `nil` when the model does not say.
    public var returnsDistinctResults: Bool?
    /// Where the template was declared.
    @NotCompared public var location: SourceLocation? = nil

    /// Creates a template.
    public init(name: String, entityName: String, predicateString: String? = nil) {
        self.name = name
        self.entityName = entityName
        self.predicateString = predicateString
    }
}
