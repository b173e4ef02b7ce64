/// An attribute of an entity (or of a composite attribute), as declared in the model file.
///
/// Values that a model file stores as text (defaults, minimum and maximum) are kept as written, since
/// their meaning depends on the type: a String's minimum is a length, a Date's a time interval.
/// Use ``defaultValue`` and the range helpers for typed access.
public struct AttributeDescription: Sendable, Hashable, Codable {
    /// The attribute's name.
    public var name: String
    /// The attribute's type.
    public var type: AttributeType
    /// Whether the attribute may be nil.
    public var isOptional: Bool = false
    /// Whether the attribute is transient (never stored).
    public var isTransient: Bool = false
    /// The default value as written in the model (`defaultValueString`).
    public var defaultValueString: String?
    /// A Date default, in seconds since 2001-01-01 00:00:00 UTC (`defaultDateTimeInterval`).
    public var defaultDateTimeInterval: Double?
    /// The minimum as written (`minValueString`): a value for numbers, a length for strings and data.
    public var minValueString: String?
    /// The maximum as written (`maxValueString`).
    public var maxValueString: String?
    /// A Date minimum, in seconds since 2001-01-01 (`minDateTimeInterval`).
    public var minDateTimeInterval: Double?
    /// A Date maximum, in seconds since 2001-01-01 (`maxDateTimeInterval`).
    public var maxDateTimeInterval: Double?
    /// The regular expression String values must match (`regularExpressionString`).
    public var regularExpression: String?
    /// The legacy per-attribute index flag (`indexed`).
    public var isIndexed: Bool = false
    /// The code-generation hint `usesScalarValueType`, or `nil` when the model does not say.
    public var usesScalarValueType: Bool?
    /// Whether large Binary values may be stored outside the database (`allowsExternalBinaryDataStorage`).
    public var allowsExternalBinaryDataStorage: Bool = false
    /// The value transformer of a Transformable attribute (`valueTransformerName`).
    public var valueTransformerName: String?
    /// The Swift or Objective-C class of a Transformable attribute's value (`customClassName`).
    public var customClassName: String?
    /// Whether the attribute is derived from an expression (`derived`).
    public var isDerived: Bool = false
    /// The expression a derived attribute is computed from (`derivationExpression`).
    public var derivationExpression: String?
    /// The name of the model-level composite a Composite attribute uses (`composite`).
    public var compositeName: String?
    /// Whether persistent history keeps the value after deletion (`preserveAfterDeletion`).
    public var preservesValueInHistoryOnDeletion: Bool = false
    /// Whether Spotlight indexes the value (`spotlightIndexingEnabled`).
    public var isIndexedBySpotlight: Bool = false
    /// The old macOS external record flag (`storedInTruthFile`).
    public var isStoredInExternalRecord: Bool = false
    /// Whether CloudKit encrypts the value (`allowsCloudEncryption`).
    public var allowsCloudEncryption: Bool = false
    /// Xcode's renaming ID (`elementID`).
    public var renamingIdentifier: String?
    /// The free string mixed into the version hash (`versionHashModifier`).
    public var versionHashModifier: String?
    /// The attribute's `userInfo`.
    public var userInfo: UserInfo = [:]
    /// Where the attribute was declared.
    @NotCompared public var location: SourceLocation? = nil

    /// Creates an attribute with the given name and type; every other setting takes its model default.
    public init(name: String, type: AttributeType, isOptional: Bool = false) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
    }
}
