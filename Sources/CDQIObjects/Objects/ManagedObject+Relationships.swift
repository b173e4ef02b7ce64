/// Relationship changes with inverse maintenance: every public change goes through `setToOne`, `add`,
/// `remove` or `replaceMembers`, which update the other side through the primitive (one-sided) setters.
extension ManagedObject {
    func inverse(of relationship: RelationshipSlot, on object: ManagedObject) -> RelationshipSlot? {
        guard let name = relationship.description.inverseName else { return nil }
        let relationships = object.entity.relationships
        if let index = relationship.inverseIndex, index < relationships.count, relationships[index].name == name {
            return relationships[index]
        }
        return object.entity.relationship(named: name)
    }

    func checkDestination(_ object: ManagedObject, for relationship: RelationshipSlot) throws(ManagedObjectError) {
        let context = object.managedObjectContext
        guard context != nil, context === managedObjectContext else {
            throw .differentContext(entity: entity.name, key: relationship.name)
        }
        guard object.entity.isKind(of: relationship.description.destinationEntityName) else {
            throw .wrongDestinationEntity(
                entity: entity.name, key: relationship.name, expected: relationship.description.destinationEntityName,
                got: object.entity.name)
        }
    }

    // MARK: Two-sided changes

    func setToOne(_ newValue: ManagedObject?, relationship: RelationshipSlot) throws(ManagedObjectError) {
        if let newValue { try checkDestination(newValue, for: relationship) }
        try willAccess()
        let oldValue = toOneValues[relationship.slotIndex]
        if oldValue === newValue { return }
        try primitiveSetToOne(newValue, relationship: relationship)
        if let oldValue, let inverse = inverse(of: relationship, on: oldValue) {
            try oldValue.primitiveDetach(self, inverse: inverse)
        }
        if let newValue, let inverse = inverse(of: relationship, on: newValue) {
            try newValue.primitiveAttach(self, inverse: inverse, at: nil)
        }
    }

    func add(_ object: ManagedObject, to relationship: RelationshipSlot, at index: Int?) throws(ManagedObjectError) {
        try checkDestination(object, for: relationship)
        guard try !toMany(relationship).contains(object) else { return }
        try primitiveAdd(object, to: relationship, at: index)
        if let inverse = inverse(of: relationship, on: object) {
            try object.primitiveAttach(self, inverse: inverse, at: nil)
        }
    }

    func remove(_ object: ManagedObject, from relationship: RelationshipSlot) throws(ManagedObjectError) {
        guard try toMany(relationship).contains(object) else { return }
        try primitiveRemove(object, from: relationship)
        if let inverse = inverse(of: relationship, on: object) {
            try object.primitiveDetach(self, inverse: inverse)
        }
    }

    func replaceMembers(of relationship: RelationshipSlot, with objects: [ManagedObject]) throws(ManagedObjectError) {
        for object in objects { try checkDestination(object, for: relationship) }
        let current = try toMany(relationship)
        let wanted = Set(objects.map(ObjectIdentifier.init))
        for object in current.objects where !wanted.contains(ObjectIdentifier(object)) {
            try remove(object, from: relationship)
        }
        for object in objects { try add(object, to: relationship, at: nil) }
        if relationship.isOrdered {
            // Put the members in the order given (duplicates keep their first place).
            var seen: Set<ObjectIdentifier> = []
            let ordered = objects.filter { seen.insert(ObjectIdentifier($0)).inserted }
            let storage = try toMany(relationship)
            if ordered.count == storage.count, zip(storage.objects, ordered).contains(where: { $0 !== $1 }) {
                try mutateToMany(relationship) { storage in
                    storage.reorder(ordered)
                    return true
                }
            }
        }
    }

    // MARK: The inverse side

    /// Makes this object's `inverse` point at (or contain) `source`, unlinking what a to-one held before.
    func primitiveAttach(_ source: ManagedObject, inverse: RelationshipSlot, at index: Int?) throws(ManagedObjectError) {
        if inverse.isToMany {
            // Adding a member skips one already there.
            try primitiveAdd(source, to: inverse, at: index)
        } else {
            try willAccess()
            let previous = toOneValues[inverse.slotIndex]
            if previous === source { return }
            try primitiveSetToOne(source, relationship: inverse)
            // A one-to-one or a moved member: the previous holder loses this object.
            if let previous, let back = self.inverse(of: inverse, on: previous) {
                try previous.primitiveDetach(self, inverse: back)
            }
        }
    }

    /// Removes `source` from this object's `inverse` (or clears it when it points at `source`).
    func primitiveDetach(_ source: ManagedObject, inverse: RelationshipSlot) throws(ManagedObjectError) {
        if inverse.isToMany {
            guard try toMany(inverse).contains(source) else { return }
            try primitiveRemove(source, from: inverse)
        } else {
            try willAccess()
            if toOneValues[inverse.slotIndex] === source { try primitiveSetToOne(nil, relationship: inverse) }
        }
    }

    /// ``primitiveDetach(_:inverse:)``, except that a destination already gone from the store (its
    /// fault cannot be fulfilled) is left alone: nothing there points back.
    func detachUnlessGone(_ source: ManagedObject, inverse: RelationshipSlot) throws(ManagedObjectError) {
        do {
            try primitiveDetach(source, inverse: inverse)
        } catch {
            if case .faultNotFulfilled = error { return }
            throw error
        }
    }

    // MARK: One-sided changes

    func primitiveSetToOne(_ value: ManagedObject?, relationship: RelationshipSlot) throws(ManagedObjectError) {
        try willAccess()
        writeToOne(value, at: relationship.slotIndex)
        markChanged()
    }

    /// Adds a member (at `index` of an ordered relationship, else at the end) unless it is one already.
    func primitiveAdd(_ object: ManagedObject, to relationship: RelationshipSlot, at index: Int?) throws(ManagedObjectError) {
        try mutateToMany(relationship) { storage in
            if let index { storage.insert(object, at: index) } else { storage.append(object) }
        }
    }

    func primitiveRemove(_ object: ManagedObject, from relationship: RelationshipSlot) throws(ManagedObjectError) {
        try mutateToMany(relationship) { $0.remove(object) }
    }

    /// Changes a to-many relationship's members in place (loading them first); `change` says whether
    /// it changed anything. The storage is taken out of its slot while it changes so that its arrays are
    /// uniquely referenced and not copied.
    @inline(__always)
    func mutateToMany(_ relationship: RelationshipSlot, _ change: (inout ToManyStorage) -> Bool) throws(ManagedObjectError) {
        try willAccess()
        let slot = relationship.slotIndex
        // Moved out of the slot (`take()` leaves nil), not copied: a copy retained each of its parts twice.
        var taken = toManyValues[slot].take()
        if taken == nil {
            _ = try toMany(relationship)
            taken = toManyValues[slot].take()
        }
        guard var storage = consume taken else { return }
        let changed = change(&storage)
        toManyValues[slot] = consume storage
        if changed { markChanged() }
    }
}
