/// A managed object model: the entities, their properties, and the model-level fetch request
/// templates, configurations and composites, as one `.xcdatamodel` version declares them.
///
/// Load one with ``ModelLoader``:
/// ```swift
/// let model = try ModelLoader().load(url: URL(fileURLWithPath: "Company.xcdatamodeld"))
/// let employee = model.entity(named: "Employee")
/// ```
public struct ManagedObjectModel: Sendable, Hashable, Codable {
    /// The entities, in file order (Xcode writes them sorted by name).
    public var entities: [EntityDescription] {
        didSet { index = Self.makeIndex(entities) }
    }
    /// The model-level composite types (`<composite>`).
    public var composites: [CompositeDescription] = []
    /// The model-level fetch request templates (`<fetchRequest>`).
    public var fetchRequestTemplates: [FetchRequestTemplate] = []
    /// The named configurations (`<configuration>`); the implicit default one is not listed.
    public var configurations: [ModelConfiguration] = []
    /// The model's version identifier (`userDefinedModelVersionIdentifier`), or `nil` when empty.
    public var versionIdentifier: String?
    /// The `.xcdatamodel` version this model was read from (`"Model 2"`), when loaded from a bundle.
    public var versionName: String?
    /// Facts about the tool that wrote the file; they do not change what the model means.
    public var toolInfo: ToolInfo = ToolInfo()
    @NotCompared private var index: [String: Int] = [:]

    /// Facts recorded on the `<model>` element by the tool that wrote it.
    public struct ToolInfo: Sendable, Hashable, Codable {
        /// `lastSavedToolsVersion`, the Xcode build number, as a string.
        public var lastSavedToolsVersion: String?
        /// `systemVersion`, the macOS build.
        public var systemVersion: String?
        /// `minimumToolsVersion`.
        public var minimumToolsVersion: String?
        /// `sourceLanguage` (`Swift` or `Objective-C`).
        public var sourceLanguage: String?
        /// `usedWithCloudKit`.
        public var isUsedWithCloudKit: Bool = false
        /// `usedWithSwiftData`.
        public var isUsedWithSwiftData: Bool = false

        /// Creates empty tool facts.
        public init() {}
    }

    /// Creates a model from its entities.
    public init(entities: [EntityDescription]) {
        self.entities = entities
        self.index = Self.makeIndex(entities)
    }

    private enum CodingKeys: String, CodingKey {
        case entities, composites, fetchRequestTemplates, configurations, versionIdentifier, versionName, toolInfo
    }

    /// Decodes a model encoded with `Codable` (for example one embedded in generated code).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(entities: try container.decode([EntityDescription].self, forKey: .entities))
        composites = try container.decode([CompositeDescription].self, forKey: .composites)
        fetchRequestTemplates = try container.decode([FetchRequestTemplate].self, forKey: .fetchRequestTemplates)
        configurations = try container.decode([ModelConfiguration].self, forKey: .configurations)
        versionIdentifier = try container.decodeIfPresent(String.self, forKey: .versionIdentifier)
        versionName = try container.decodeIfPresent(String.self, forKey: .versionName)
        toolInfo = try container.decode(ToolInfo.self, forKey: .toolInfo)
    }

    /// Encodes the model; source locations are left out, so the encoding does not depend on where the
    /// model file was.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entities, forKey: .entities)
        try container.encode(composites, forKey: .composites)
        try container.encode(fetchRequestTemplates, forKey: .fetchRequestTemplates)
        try container.encode(configurations, forKey: .configurations)
        try container.encodeIfPresent(versionIdentifier, forKey: .versionIdentifier)
        try container.encodeIfPresent(versionName, forKey: .versionName)
        try container.encode(toolInfo, forKey: .toolInfo)
    }

    private static func makeIndex(_ entities: [EntityDescription]) -> [String: Int] {
        var index: [String: Int] = [:]
        for (position, entity) in entities.enumerated() where index[entity.name] == nil {
            index[entity.name] = position
        }
        return index
    }

    /// The entity with the given name.
    public func entity(named name: String) -> EntityDescription? {
        index[name].map { entities[$0] }
    }

    /// The composite with the given name.
    public func composite(named name: String) -> CompositeDescription? {
        composites.first { $0.name == name }
    }

    /// The entity's ancestors, nearest first. Stops at a missing parent or a cycle.
    public func ancestors(of entity: EntityDescription) -> [EntityDescription] {
        var chain: [EntityDescription] = []
        var seen: Set<String> = [entity.name]
        var next = entity.parentEntityName
        while let name = next, !seen.contains(name), let parent = self.entity(named: name) {
            chain.append(parent)
            seen.insert(name)
            next = parent.parentEntityName
        }
        return chain
    }

    /// The entity's direct sub-entities, in file order.
    public func subentities(of entity: EntityDescription) -> [EntityDescription] {
        entities.filter { $0.parentEntityName == entity.name }
    }

    /// Every attribute of the entity: inherited ones first (root ancestor first), then its own.
    public func allAttributes(of entity: EntityDescription) -> [AttributeDescription] {
        (ancestors(of: entity).reversed() + [entity]).flatMap(\.attributes)
    }

    /// Every relationship of the entity: inherited ones first, then its own.
    public func allRelationships(of entity: EntityDescription) -> [RelationshipDescription] {
        (ancestors(of: entity).reversed() + [entity]).flatMap(\.relationships)
    }

    /// Every fetched property of the entity: inherited ones first, then its own.
    public func allFetchedProperties(of entity: EntityDescription) -> [FetchedPropertyDescription] {
        (ancestors(of: entity).reversed() + [entity]).flatMap(\.fetchedProperties)
    }
}
