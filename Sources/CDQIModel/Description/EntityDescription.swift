/// An entity of a managed object model, as declared in the model file.
///
/// ``attributes``, ``relationships`` and ``fetchedProperties`` hold the properties the entity declares
/// itself; ``ManagedObjectModel/allAttributes(of:)`` and its siblings add the inherited ones.
public struct EntityDescription: Sendable, Hashable, Codable {
    /// The entity's name.
    public var name: String
    /// The class name exactly as the model writes it (`representedClassName`): possibly module-qualified
    /// (`Module.Name`), module-relative (`.Name`), empty, or `nil` when absent.
    public var representedClassName: String?
    /// The name of the parent entity, for sub-entities.
    public var parentEntityName: String?
    /// Whether the entity is abstract (no instances of its own).
    public var isAbstract: Bool = false
    /// What Xcode generates for the entity, or `nil` for manual code.
    public var codeGenerationType: CodeGenerationType?
    /// Xcode's renaming ID (`elementID`).
    public var renamingIdentifier: String?
    /// The free string mixed into the version hash (`versionHashModifier`).
    public var versionHashModifier: String?
    /// The attributes the entity declares.
    public var attributes: [AttributeDescription] = []
    /// The relationships the entity declares.
    public var relationships: [RelationshipDescription] = []
    /// The fetched properties the entity declares.
    public var fetchedProperties: [FetchedPropertyDescription] = []
    /// The fetch indexes (`<fetchIndex>`).
    public var fetchIndexes: [FetchIndex] = []
    /// The legacy compound indexes (`<compoundIndexes>`, before Xcode 9), as unnamed indexes.
    public var compoundIndexes: [FetchIndex] = []
    /// The uniqueness constraints.
    public var uniquenessConstraints: [UniquenessConstraint] = []
    /// The entity's `userInfo`.
    public var userInfo: UserInfo = [:]
    /// Where the entity was declared.
    @NotCompared public var location: SourceLocation? = nil

    /// Creates an entity.
    public init(name: String, representedClassName: String? = nil, parentEntityName: String? = nil) {
        self.name = name
        self.representedClassName = representedClassName
        self.parentEntityName = parentEntityName
    }

    /// The Swift class name the entity's objects have, with any module prefix removed
    /// (`".Employee"` and `"App.Employee"` give `"Employee"`), or `nil` when the model names no class
    /// (absent, empty, or `NSManagedObject`), in which case objects are plain managed objects.
    public var className: String? {
        guard let written = representedClassName?.trimmingWhitespace, !written.isEmpty else { return nil }
        let last = written.split(separator: ".", omittingEmptySubsequences: true).last.map(String.init) ?? ""
        if last.isEmpty || last == "NSManagedObject" { return nil }
        return last
    }

    /// The attribute this entity declares with the given name.
    public func attribute(named name: String) -> AttributeDescription? {
        attributes.first { $0.name == name }
    }

    /// The relationship this entity declares with the given name.
    public func relationship(named name: String) -> RelationshipDescription? {
        relationships.first { $0.name == name }
    }
}
