extension ManagedObject {
    /// Sets the to-one relationship `key` to `destination` as ``setValue(_:forKey:)`` does, except that
    /// the destination's inverse to-many, when its members are not in memory, is left so (not read from
    /// the store to add this object): read after this object is saved, it holds it. For a bulk import
    /// that saves in batches, where adding each object to a destination saved earlier would read (and
    /// hold) every member it has.
    ///
    /// Only for a relationship whose inverse is an unordered to-many with no count limits and not
    /// required (the destination has nothing to validate or order); any other relationship is set as
    /// ``setValue(_:forKey:)`` sets it.
    package func setToOneLeavingInverseUnloaded(_ destination: ManagedObject?, forKey key: String) throws(ManagedObjectError) {
        guard let relationship = entity.relationship(named: key), !relationship.isToMany, let destination,
            let inverse = inverse(of: relationship, on: destination), inverse.isToMany, !inverse.isOrdered,
            inverse.description.isOptional, (inverse.description.minCount ?? 0) == 0, (inverse.description.maxCount ?? 0) == 0,
            !destination.hasMembersInMemory(inverse.slotIndex)
        else {
            try setValue(destination, forKey: key)
            return
        }
        try checkDestination(destination, for: relationship)
        try willAccess()
        let oldValue = toOneValues[relationship.slotIndex]
        if oldValue === destination { return }
        try primitiveSetToOne(destination, relationship: relationship)
        if let oldValue, let oldInverse = self.inverse(of: relationship, on: oldValue) {
            try oldValue.primitiveDetach(self, inverse: oldInverse)
        }
    }

    /// Whether the to-many relationship in `slot` has its members in memory (a fault has none).
    private func hasMembersInMemory(_ slot: Int) -> Bool {
        toManyValues.indices.contains(slot) && toManyValues[slot] != nil
    }
}
