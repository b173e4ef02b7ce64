import CDQIPredicate

extension ManagedObjectContext {
    /// Loads, for `objects`, the relationships along each key path of `keyPaths` (`"department"`,
    /// `"languages"`, `"department.employees"`): one query per relationship step and per 500 objects,
    /// instead of one query per object when each is first used. Relationships already loaded, and
    /// objects not saved yet, are left as they are.
    ///
    /// - Throws: ``PredicateSQLError/unknownKey(key:entity:keyPath:)`` when a step is not a relationship
    ///   of the objects reached; ``ManagedObjectError/store(_:)`` when the store cannot be read.
    func prefetch(_ keyPaths: [String], for objects: [ManagedObject]) throws {
        for keyPath in keyPaths {
            var current = objects
            for key in keyPath.split(separator: ".").map(String.init) {
                try load(current)
                var next: [ManagedObject] = []
                var toManyOwners: [(object: ManagedObject, slot: RelationshipSlot)] = []
                for object in current {
                    guard let slot = object.entity.relationship(named: key) else {
                        throw PredicateSQLError.unknownKey(key: key, entity: object.entity.name, keyPath: keyPath)
                    }
                    if slot.isToMany {
                        if let members = object.toManyValues[slot.slotIndex] {
                            next += members.objects
                        } else {
                            toManyOwners.append((object, slot))
                        }
                    } else if let destination = object.toOneValues[slot.slotIndex] {
                        next.append(destination)
                    }
                }
                next += try loadToMany(toManyOwners)
                current = next
            }
            try load(current)
        }
    }

    /// Fills the faults among `objects` from their rows, one query per table and per 500 keys.
    func load(_ objects: [ManagedObject]) throws {
        var faults: [String: (layout: EntityLayout, keys: [Int64])] = [:]
        var seen = Set<ObjectIdentifier>()
        for object in objects where !object.isLoaded && seen.insert(ObjectIdentifier(object)).inserted {
            guard let key = object.objectID.primaryKey else { continue }
            faults[object.entity.tableName, default: (object.entity, [])].keys.append(key)
        }
        for (layout, keys) in faults.values {
            for chunk in keys.chunked(SQLText.keysPerQuery) {
                let query = ToManyQuery.rows(of: layout, keyCount: chunk.count, dialect: coordinator.store.dialect)
                _ = try self.objects(ofRows: query, keys: Array(chunk))
            }
        }
    }

    /// Loads the to-many relationships of `owners` (saved objects whose relationship is not loaded yet)
    /// and returns their members.
    private func loadToMany(_ owners: [(object: ManagedObject, slot: RelationshipSlot)]) throws -> [ManagedObject] {
        var groups: [String: [(object: ManagedObject, slot: RelationshipSlot)]] = [:]
        for owner in owners where owner.slot.isStored && owner.object.objectID.primaryKey != nil {
            groups["\(owner.object.entity.name).\(owner.slot.name)", default: []].append(owner)
        }
        var members: [ManagedObject] = []
        for group in groups.values {
            guard let slot = group.first?.slot,
                let destination = coordinator.layout.entity(named: slot.description.destinationEntityName)
            else { continue }
            for chunk in group.chunked(SQLText.keysPerQuery) {
                let keys = chunk.compactMap { $0.object.objectID.primaryKey }
                guard
                    let query = ToManyQuery.make(
                        slot, destination: destination, ownerCount: keys.count, dialect: coordinator.store.dialect)
                else { continue }
                var byOwner: [Int64: [ManagedObject]] = [:]
                _ = try objects(ofRows: query, keys: keys) { member, owner in
                    if let owner { byOwner[owner, default: []].append(member) }
                }
                for (object, slot) in chunk where object.toManyValues[slot.slotIndex] == nil {
                    guard let key = object.objectID.primaryKey else { continue }
                    let related = byOwner[key] ?? []
                    object.toManyValues[slot.slotIndex] = ToManyStorage(objects: related, isOrdered: slot.isOrdered)
                    members += related
                }
            }
        }
        return members
    }
}
