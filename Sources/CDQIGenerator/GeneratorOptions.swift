/// How ``ProxyGenerator`` writes Swift source.
public struct GeneratorOptions: Sendable, Hashable {
    /// The access level of the proxies, their properties and the conformances. Default: internal.
    public var accessLevel: AccessLevel
    /// What is appended to an entity name to name its proxy (`Employee` + `Attribute`). Must be a
    /// non-empty run of identifier characters. Default: `"Attribute"`.
    public var suffix: String
    /// The number of spaces one level of indentation takes. Default: 4.
    public var indentWidth: Int
    /// Which entities get generated classes (and so an embedded model that registers them). Default:
    /// ``ObjectClassSelection/asModelSays``.
    public var objectClasses: ObjectClassSelection

    /// Creates options; every parameter has CDQI's default.
    public init(
        accessLevel: AccessLevel = .internal, suffix: String = "Attribute", indentWidth: Int = 4,
        objectClasses: ObjectClassSelection = .asModelSays
    ) {
        self.accessLevel = accessLevel
        self.suffix = suffix
        self.indentWidth = indentWidth
        self.objectClasses = objectClasses
    }

    /// Whether `suffix` can be appended to an identifier and leave an identifier: non-empty, and made
    /// of letters, digits and underscores only.
    public static func isValidSuffix(_ suffix: String) -> Bool {
        !suffix.isEmpty && suffix.allSatisfy(SwiftIdentifier.isIdentifierCharacter)
    }
}
