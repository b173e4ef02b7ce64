/// One difference between two versions of a model, in the model's terms, and whether a lightweight
/// (inferred) migration can carry it out.
public struct ModelChange: Sendable, Hashable, CustomStringConvertible {
    /// What changed.
    public enum Kind: Sendable, Hashable {
        case entityAdded
        case entityRemoved
        /// Renamed through the destination's renaming identifier (`elementID`).
        case entityRenamed(from: String)
        /// The entity's parent changed (or it gained or lost one): inferred, unless it merges two
        /// hierarchies into one. (`from: nil, to: nil` names a hierarchy root whose hierarchy merges others.)
        case parentChanged(from: String?, to: String?)
        case attributeAdded
        case attributeRemoved
        case attributeRenamed(from: String)
        case madeOptional
        /// Made required; `defaultValue` fills the rows without a value.
        case madeRequired(defaultValue: String?)
        case typeChanged(from: AttributeType, to: AttributeType)
        case relationshipAdded
        case relationshipRemoved
        case relationshipRenamed(from: String)
        case cardinalityChanged(toMany: Bool)
        case orderingChanged(ordered: Bool)
        case destinationChanged(from: String, to: String)
        case inverseChanged(from: String?, to: String?)
        /// An attribute became a relationship or the other way round.
        case kindChanged
        case uniquenessConstraintsChanged
        /// Only a version hash modifier (or `preserveAfterDeletion`, min/max count) changed: no data change.
        case hashModifierChanged
    }

    /// Whether and how a lightweight migration handles the change.
    public enum Support: Sendable, Hashable {
        /// Inferred and carried out.
        case inferred
        /// Core Data does not infer it (a mapping model is needed): refused.
        case notInferable(String)
        /// Core Data infers it, but this package does not carry it out yet: refused.
        case notImplemented(String)
    }

    /// The entity, by its destination name (its source name when removed).
    public var entity: String
    /// The property, by its destination name (its source name when removed); `nil` for entity changes.
    public var property: String?
    /// What changed.
    public var kind: Kind
    /// Whether it can be migrated.
    public var support: Support

    /// Creates a change.
    public init(entity: String, property: String? = nil, kind: Kind, support: Support = .inferred) {
        self.entity = entity
        self.property = property
        self.kind = kind
        self.support = support
    }

    /// Whether a lightweight migration carries it out.
    public var isInferred: Bool { support == .inferred }

    /// The change in words (`rename attribute Item.addedAt → createdAt`), with the reason when refused.
    public var description: String {
        let subject = property.map { "\(entity).\($0)" } ?? entity
        var text: String
        switch kind {
        case .entityAdded: text = "add entity \(entity)"
        case .entityRemoved: text = "remove entity \(entity) (its objects are deleted)"
        case .entityRenamed(let old): text = "rename entity \(old) → \(entity)"
        case .parentChanged(let old, let new): text = "change the parent of \(entity) from \(old ?? "none") to \(new ?? "none")"
        case .attributeAdded: text = "add attribute \(subject)"
        case .attributeRemoved: text = "remove attribute \(subject) (data dropped)"
        case .attributeRenamed(let old): text = "rename attribute \(entity).\(old) → \(property ?? "")"
        case .madeOptional: text = "make \(subject) optional"
        case .madeRequired(let value):
            text = "make \(subject) required" + (value.map { " (empty values become \($0))" } ?? " (no default)")
        case .typeChanged(let old, let new): text = "change the type of \(subject) from \(old.rawValue) to \(new.rawValue)"
        case .relationshipAdded: text = "add relationship \(subject)"
        case .relationshipRemoved: text = "remove relationship \(subject) (links dropped)"
        case .relationshipRenamed(let old): text = "rename relationship \(entity).\(old) → \(property ?? "")"
        case .cardinalityChanged(let toMany): text = "make \(subject) \(toMany ? "to-many" : "to-one")"
        case .orderingChanged(let ordered): text = "make \(subject) \(ordered ? "ordered" : "unordered")"
        case .destinationChanged(let old, let new): text = "change the destination of \(subject) from \(old) to \(new)"
        case .inverseChanged(let old, let new): text = "change the inverse of \(subject) from \(old ?? "none") to \(new ?? "none")"
        case .kindChanged: text = "turn \(subject) from an attribute into a relationship or back"
        case .uniquenessConstraintsChanged: text = "change the uniqueness constraints of \(entity)"
        case .hashModifierChanged: text = "change the version hash inputs of \(subject) (no data change)"
        }
        switch support {
        case .inferred: break
        case .notInferable(let reason): text += ": not inferable (\(reason))"
        case .notImplemented(let reason): text += ": not supported yet (\(reason))"
        }
        return text
    }
}
