/// Why reading or changing a managed object's value failed.
public enum ManagedObjectError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The entity has no property with this name.
    case unknownKey(entity: String, key: String)
    /// The value's type does not fit the property (`expected` names what it takes).
    case wrongValueType(entity: String, key: String, expected: String, got: String)
    /// An integer does not fit the attribute's width.
    case valueOutOfRange(entity: String, key: String, value: String)
    /// The related object belongs to another context, or to none.
    case differentContext(entity: String, key: String)
    /// The related object's entity is not the relationship's destination (or a sub-entity of it).
    case wrongDestinationEntity(entity: String, key: String, expected: String, got: String)
    /// The object is not registered with a context (it was never inserted, or its context was reset
    /// or released), so its data cannot be loaded or changed.
    case noContext(entity: String)
    /// The object's row is gone from the store (another context deleted it), so its fault cannot be
    /// fulfilled.
    case faultNotFulfilled(objectID: String)
    /// The store failed while loading the object.
    case store(String)

    /// A sentence describing the value.
    public var description: String {
        switch self {
        case .unknownKey(let entity, let key):
            return "entity \(entity) has no property '\(key)'"
        case .wrongValueType(let entity, let key, let expected, let got):
            return "\(entity).\(key) takes \(expected), not \(got)"
        case .valueOutOfRange(let entity, let key, let value):
            return "\(entity).\(key): \(value) does not fit the attribute's integer type"
        case .differentContext(let entity, let key):
            return "\(entity).\(key): the object belongs to another context"
        case .wrongDestinationEntity(let entity, let key, let expected, let got):
            return "\(entity).\(key) holds \(expected) objects, not \(got)"
        case .noContext(let entity):
            return "the \(entity) object is not registered with a context"
        case .faultNotFulfilled(let objectID):
            return "the object \(objectID) was deleted from the store; its fault cannot be fulfilled"
        case .store(let message):
            return "the store failed while loading an object: \(message)"
        }
    }
}
