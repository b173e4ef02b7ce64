/// Why a batch request failed. A failed batch request changes nothing in the store and nothing in any
/// context.
public enum BatchError: Error, Sendable, CustomStringConvertible {
    /// The model has no entity with this name.
    case unknownEntity(String)
    /// The entity has no stored attribute with this name (relationships and transient attributes cannot
    /// be batch-updated).
    case notAnAttribute(entity: String, property: String)
    /// A new value does not suit its attribute: what the attribute takes.
    case valueMismatch(entity: String, attribute: String, expected: String)
    /// The predicate or an update expression cannot be compiled to SQL.
    case predicate(PredicateSQLError)
    /// The relationship's delete rule is Deny and a deleted object still has destinations through it (Core
    /// Data refuses every batch delete of an entity with a Deny rule, `NSCoreDataError` 134060; we refuse
    /// only when the rule would refuse the in-memory delete).
    case deleteDenied(entity: String, relationship: String)
    /// Nullifying the relationship would leave a destination without its mandatory inverse (Core Data's
    /// "Batch delete failed due to mandatory … nullify inverse on Entity/relationship").
    case mandatoryInverse(entity: String, relationship: String)
    /// The request asks for something batch requests cannot do.
    case unsupported(String)
    /// The store failed.
    case store(StoreError)

    /// A sentence describing the value.
    public var description: String {
        switch self {
        case .unknownEntity(let name): return "the model has no entity '\(name)'"
        case .notAnAttribute(let entity, let property):
            return "'\(property)' is no stored attribute of \(entity): a batch update sets attributes only"
        case .valueMismatch(let entity, let attribute, let expected):
            return "the batch update's value for \(entity).\(attribute) must be \(expected)"
        case .predicate(let error): return "the batch request cannot be compiled: \(error)"
        case .deleteDenied(let entity, let relationship):
            return "batch delete refused: \(entity).\(relationship) has delete rule Deny and a deleted object still has destinations"
        case .mandatoryInverse(let entity, let relationship):
            return "batch delete refused: nullifying \(entity).\(relationship) would leave a destination without its mandatory inverse"
        case .unsupported(let reason): return "unsupported batch request: \(reason)"
        case .store(let error): return error.description
        }
    }
}
