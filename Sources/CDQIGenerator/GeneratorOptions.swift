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
    /// The classes the target declares itself, when known (the build plugin finds them in the target's
    /// sources). Then an entity with Manual/None code generation whose class is not among them gets no
    /// `Entity` conformance (it would not compile) and a warning; `nil`, the default, assumes every such
    /// class is written by hand.
    public var declaredClassNames: Set<String>?

    /// Creates options; every parameter has CDQI's default.
    public init(
        accessLevel: AccessLevel = .internal, suffix: String = "Attribute", indentWidth: Int = 4,
        objectClasses: ObjectClassSelection = .asModelSays, declaredClassNames: Set<String>? = nil
    ) {
        self.accessLevel = accessLevel
        self.suffix = suffix
        self.indentWidth = indentWidth
        self.objectClasses = objectClasses
        self.declaredClassNames = declaredClassNames
    }

    /// Whether `suffix` can be appended to an identifier and leave an identifier: non-empty, and made
    /// of letters, digits and underscores only.
    public static func isValidSuffix(_ suffix: String) -> Bool {
        !suffix.isEmpty && suffix.allSatisfy(SwiftIdentifier.isIdentifierCharacter)
    }
}
