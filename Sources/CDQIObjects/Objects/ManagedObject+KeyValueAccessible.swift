import CDQIPredicate

extension ManagedObject {
    /// The value the in-memory predicate evaluator sees for `key`: attributes as scalars, a to-one as
    /// the object (or nil), a to-many as its members. Faults are loaded first; a fault that cannot be
    /// loaded reads as nil.
    public func predicateValue(forKey key: String) throws(PredicateEvaluationError) -> PredicateValue {
        guard let property = entity.properties[key] else {
            throw .unknownKey(key: key, keyPath: key)
        }
        switch property {
        case .attribute(let index):
            guard (try? willAccess()) != nil else { return .null }
            return .scalar(attributeValues[index])
        case .relationship(let index):
            let relationship = entity.relationships[index]
            if relationship.isToMany {
                guard let storage = try? toMany(relationship) else { return .toMany([]) }
                return .toMany(storage.objects)
            }
            guard (try? willAccess()) != nil, let object = toOneValues[relationship.slotIndex] else { return .null }
            return .object(object)
        }
    }

    /// The object's ID as the predicate layer's reference.
    public var predicateObjectID: ObjectReference? { objectID.reference }
}
