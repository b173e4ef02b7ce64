import CDQIModel
import CDQIPredicate

extension ManagedObject {
    // MARK: Reading

    /// The value of a property, loading the object (or the relationship's members) first if needed.
    ///
    /// Attributes come back as `Int16`/`Int32`/`Int64`, `Double`, `Float`, `Decimal`, `String`, `Bool`,
    /// `Date`, `Data`, `UUID` or `URL` (`nil` when unset); a to-one relationship as a `ManagedObject?`; a
    /// to-many relationship as a `Set<ManagedObject>`, an ordered one as a `[ManagedObject]`.
    /// - Throws: ``ManagedObjectError/unknownKey(entity:key:)`` for a key the entity does not have, or a
    ///   loading error.
    public func value(forKey key: String) throws(ManagedObjectError) -> Any? {
        switch entity.properties[key] {
        case .attribute(let index)?:
            try willAccess()
            return ValueConversion.swiftValue(attributeValues[index], type: entity.attributes[index].description.type)
        case .relationship(let index)?:
            let relationship = entity.relationships[index]
            if relationship.isToMany {
                return relationshipValue(try toMany(relationship), ordered: relationship.isOrdered)
            }
            try willAccess()
            return toOneValues[relationship.slotIndex]
        case nil:
            throw .unknownKey(entity: entity.name, key: key)
        }
    }

    /// The stored value of an attribute, as the store and the predicate evaluator see it.
    public func storedValue(forKey key: String) throws(ManagedObjectError) -> StoredValue {
        guard let attribute = entity.attribute(named: key) else {
            throw .unknownKey(entity: entity.name, key: key)
        }
        try willAccess()
        return attributeValues[attribute.index]
    }

    /// The destination of a to-one relationship.
    public func object(forKey key: String) throws(ManagedObjectError) -> ManagedObject? {
        guard let relationship = entity.relationship(named: key), !relationship.isToMany else {
            throw .unknownKey(entity: entity.name, key: key)
        }
        try willAccess()
        return toOneValues[relationship.slotIndex]
    }

    /// The members of a to-many relationship, in order (the relationship's order for an ordered one,
    /// otherwise the order they were loaded or added in).
    public func objects(forKey key: String) throws(ManagedObjectError) -> [ManagedObject] {
        guard let relationship = entity.relationship(named: key), relationship.isToMany else {
            throw .unknownKey(entity: entity.name, key: key)
        }
        return try toMany(relationship).objects
    }

    func toMany(_ relationship: RelationshipSlot) throws(ManagedObjectError) -> ToManyStorage {
        try willAccess()
        if let storage = toManyValues[relationship.slotIndex] { return storage }
        guard let context = managedObjectContext else { throw .noContext(entity: entity.name) }
        let storage = try context.loadToMany(of: self, relationship)
        toManyValues[relationship.slotIndex] = storage
        return storage
    }

    // MARK: Writing

    /// Sets a property. Setting a relationship also updates its inverse on the objects involved (the old
    /// and new destinations), as Core Data does.
    ///
    /// Attributes take the Swift types ``value(forKey:)`` returns (integers of any width that fit, and
    /// `Int` for floating-point and decimal attributes too) or a ``StoredValue``; `nil` clears. A to-one
    /// takes a `ManagedObject?`; a to-many a `Set<ManagedObject>` or `[ManagedObject]`, which replaces
    /// its members.
    /// - Throws: ``ManagedObjectError/unknownKey(entity:key:)``, ``ManagedObjectError/wrongValueType(entity:key:expected:got:)``,
    ///   ``ManagedObjectError/valueOutOfRange(entity:key:value:)``, or a relationship error.
    public func setValue(_ value: Any?, forKey key: String) throws(ManagedObjectError) {
        switch entity.properties[key] {
        case .attribute(let index)?:
            let attribute = entity.attributes[index]
            let stored: StoredValue
            do {
                stored = try ValueConversion.storedValue(value, type: attribute.description.type)
            } catch {
                if error.outOfRange { throw .valueOutOfRange(entity: entity.name, key: key, value: "\(value ?? "nil")") }
                throw .wrongValueType(entity: entity.name, key: key, expected: error.expected, got: Self.typeName(value))
            }
            try setStored(stored, attribute: attribute)
        case .relationship(let index)?:
            let relationship = entity.relationships[index]
            if relationship.isToMany {
                let objects: [ManagedObject]
                switch value {
                case nil: objects = []
                case let set as Set<ManagedObject>: objects = Array(set)
                case let array as [ManagedObject]: objects = array
                default:
                    throw .wrongValueType(
                        entity: entity.name, key: key, expected: "a Set<ManagedObject> or [ManagedObject]",
                        got: Self.typeName(value))
                }
                try replaceMembers(of: relationship, with: objects)
            } else {
                guard value == nil || value is ManagedObject else {
                    throw .wrongValueType(entity: entity.name, key: key, expected: "a ManagedObject", got: Self.typeName(value))
                }
                try setToOne(value as? ManagedObject, relationship: relationship)
            }
        case nil:
            throw .unknownKey(entity: entity.name, key: key)
        }
    }

    /// Sets an attribute to a stored value of a fitting kind.
    public func setStoredValue(_ value: StoredValue, forKey key: String) throws(ManagedObjectError) {
        try setValue(value, forKey: key)
    }

    func setStored(_ value: StoredValue, attribute: AttributeSlot) throws(ManagedObjectError) {
        try willAccess()
        writeAttribute(value, at: attribute.index)
        markChanged()
    }

    /// Adds an object to a to-many relationship (at the end of an ordered one), updating the inverse.
    public func addObject(_ object: ManagedObject, toKey key: String) throws(ManagedObjectError) {
        let relationship = try toManySlot(key)
        try add(object, to: relationship, at: nil)
    }

    /// Inserts an object into an ordered to-many relationship at `index` (moving it if already there).
    public func insertObject(_ object: ManagedObject, at index: Int, forKey key: String) throws(ManagedObjectError) {
        let relationship = try toManySlot(key)
        if try toMany(relationship).contains(object) {
            try primitiveRemove(object, from: relationship)
            try primitiveAdd(object, to: relationship, at: index)
            return
        }
        try add(object, to: relationship, at: index)
    }

    /// Removes an object from a to-many relationship, updating the inverse.
    public func removeObject(_ object: ManagedObject, fromKey key: String) throws(ManagedObjectError) {
        let relationship = try toManySlot(key)
        try remove(object, from: relationship)
    }

    private func toManySlot(_ key: String) throws(ManagedObjectError) -> RelationshipSlot {
        guard let relationship = entity.relationship(named: key), relationship.isToMany else {
            throw .unknownKey(entity: entity.name, key: key)
        }
        return relationship
    }

    static func typeName(_ value: Any?) -> String {
        guard let value else { return "nil" }
        return String(describing: type(of: value))
    }

    func markChanged() {
        // Already listed: skip loading the weak reference to the context (every setter calls this).
        guard touchedPosition < 0 else { return }
        managedObjectContext?.objectDidChange(self)
    }
}
