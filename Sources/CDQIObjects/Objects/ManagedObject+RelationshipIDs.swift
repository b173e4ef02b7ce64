extension ManagedObject {
    /// The IDs of a relationship's destinations, without loading them as objects: Core Data's
    /// `objectIDs(forRelationshipNamed:)`.
    ///
    /// A to-many relationship gives its members in the order ``objects(forKey:)`` gives them (the
    /// relationship's order when it is ordered); its members are read from the store as IDs alone, so
    /// that reading the members of a large relationship registers no object, unless the relationship is
    /// loaded already (then its current members, unsaved changes included). A to-one relationship gives
    /// its destination's ID, or none.
    /// - Throws: ``ManagedObjectError/unknownKey(entity:key:)`` for a key that is not a relationship of
    ///   the entity, or a loading error.
    public func objectIDs(forRelationshipNamed key: String) throws(ManagedObjectError) -> [ManagedObjectID] {
        guard let relationship = entity.relationship(named: key) else {
            throw .unknownKey(entity: entity.name, key: key)
        }
        try willAccess()
        guard relationship.isToMany else { return toOneValues[relationship.slotIndex].map { [$0.objectID] } ?? [] }
        if let storage = toManyValues[relationship.slotIndex] { return storage.objects.map(\.objectID) }
        guard let context = managedObjectContext else { throw .noContext(entity: entity.name) }
        return try context.memberIDs(of: self, relationship)
    }
}

extension ManagedObjectContext {
    /// The IDs of the stored members of a saved object's to-many relationship, in the order
    /// ``loadToMany(of:_:)`` reads them, read from the first two columns (`Z_ENT, Z_PK`) of its rows.
    func memberIDs(of object: ManagedObject, _ relationship: RelationshipSlot) throws(ManagedObjectError) -> [ManagedObjectID] {
        let store = coordinator.store
        guard let key = object.objectID.primaryKey, relationship.isStored,
            let destination = coordinator.layout.entity(named: relationship.description.destinationEntityName),
            let query = ToManyQuery.make(relationship, destination: destination, ownerCount: 1, dialect: store.dialect)
        else { return [] }
        do {
            return try store.readReferences(query, keys: [key]).compactMap { objectID(entityNumber: $0.entityNumber, key: $0.key) }
        } catch {
            throw .store("\(error)")
        }
    }
}
