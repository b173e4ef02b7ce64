import CDQIPredicate

/// A row as read from an entity table.
@usableFromInline package struct StoredRow {
    @usableFromInline var entityNumber: Int
    @usableFromInline var version: Int64
    @usableFromInline var attributes: [StoredValue]
    /// Per to-one slot: the destination's primary key and entity number.
    @usableFromInline var toOne: [(key: Int64, entityNumber: Int)?]

    @usableFromInline init(
        entityNumber: Int, version: Int64, attributes: [StoredValue], toOne: [(key: Int64, entityNumber: Int)?]
    ) {
        self.entityNumber = entityNumber
        self.version = version
        self.attributes = attributes
        self.toOne = toOne
    }
}

extension ManagedObjectContext {
    /// Loads a fault's row into its slots.
    func fulfillFault(_ object: ManagedObject) throws(ManagedObjectError) {
        guard let key = object.objectID.primaryKey else {
            // A temporary ID that is not registered as inserted has no row.
            throw .faultNotFulfilled(objectID: object.objectID.uriString)
        }
        // The row must be of the ID's entity (or a sub-entity): `Book/p2` does not name an Album's row.
        guard let row = try readRow(of: object.entity, key: key),
            object.entity.numbersIncludingSubentities.contains(row.entityNumber)
        else {
            throw .faultNotFulfilled(objectID: object.objectID.uriString)
        }
        apply(row, to: object)
        object.awakeFromFetch()
    }

    /// Reads the row with primary key `key` of an entity's table, or `nil` when there is none.
    func readRow(of layout: EntityLayout, key: Int64) throws(ManagedObjectError) -> StoredRow? {
        do {
            return try coordinator.store.readRow(of: layout, key: key)
        } catch {
            throw .store("\(error)")
        }
    }

    /// The ID of a row of entity `number` with primary key `key`.
    func objectID(entityNumber number: Int, key: Int64) -> ManagedObjectID? {
        coordinator.layout.entity(number: number).map {
            ManagedObjectID(entity: handle(for: $0), store: coordinator.storeNumber, primaryKey: key)
        }
    }

    /// The object a stored to-one reference names (a fault when not registered yet), or `nil` for none
    /// or for an entity number the model does not have.
    @usableFromInline func object(referencedBy reference: (key: Int64, entityNumber: Int)?) -> ManagedObject? {
        // The layout unretained: this runs for every reference of every row read (see
        // ``ModelLayout/unretainedEntity(number:)``); the coordinator holds it.
        guard let reference, let layout = coordinator.layout.unretainedEntity(number: reference.entityNumber) else { return nil }
        return layout._withUnsafeGuaranteedRef { registeredObject(of: $0, key: reference.key).object }
    }

    /// Fills an object's slots (to-many relationships left to load on use) and snapshot from a row.
    func apply(_ row: StoredRow, to object: ManagedObject) {
        object.attributeValues = row.attributes
        object.toOneValues = ToOneSlots(row.toOne.map { self.object(referencedBy: $0) })
        finishLoading(object, version: row.version)
    }

    /// Completes loading an object whose attribute and to-one slots are filled: to-many slots not
    /// loaded yet, the snapshot, the loaded flag.
    @usableFromInline @inline(__always) func finishLoading(_ object: ManagedObject, version: Int64) {
        // The context's slots, through the object's handle (see ``EntityHandle``); the layout read where
        // used, not kept in a variable: a variable held counted a reference on it.
        if object.toManyValues.count != object.entity.toManyCount {
            object.toManyValues = object.entityHandle.unloadedToMany
        }
        object.takeSnapshot(version: version)
        object.isLoaded = true
        // Every slot now holds its snapshot value and no to-many is loaded: no changes, known at once
        // rather than worked out by the next `hasChanges` (a fetch cursor asks it of every object).
        if object.toManyValues.allUnloaded { object.knownPersistentChanges = false }
    }

    /// Loads the members of a saved object's to-many relationship: whole rows, so that members that are
    /// faults are filled at once (no query per member).
    func loadToMany(of object: ManagedObject, _ relationship: RelationshipSlot) throws(ManagedObjectError) -> ToManyStorage {
        guard let key = object.objectID.primaryKey else {
            // An object never saved: no members, and none committed.
            var storage = ToManyStorage(objects: [], isOrdered: relationship.isOrdered)
            storage.committed = nil
            return storage
        }
        let query: KeyedRowQuery?
        if let made = toManyQueries[ObjectIdentifier(relationship)] {
            query = made.query
        } else {
            // Writing the SQL cost more than running it; each relationship's is written once.
            if relationship.isStored,
                let destination = coordinator.layout.entity(named: relationship.description.destinationEntityName)
            {
                query = ToManyQuery.make(relationship, destination: destination, ownerCount: 1, dialect: coordinator.store.dialect)
            } else {
                query = nil
            }
            toManyQueries[ObjectIdentifier(relationship)] = (relationship, query)
        }
        guard let query else { return ToManyStorage(objects: [], isOrdered: relationship.isOrdered) }
        return ToManyStorage(objects: try objects(ofRows: query, keys: [key]), isOrdered: relationship.isOrdered)
    }

    /// Re-reads a loaded object's row and puts its unsaved changes back on top.
    func reloadKeepingChanges(_ object: ManagedObject) throws(ManagedObjectError) {
        guard let key = object.objectID.primaryKey, let old = object.snapshot else { return }
        guard let row = try readRow(of: object.entity, key: key) else {
            throw .faultNotFulfilled(objectID: object.objectID.uriString)
        }
        let layout = object.entity
        let attributes = object.attributeValues
        let toOne = object.toOneValues
        let toMany = object.toManyValues
        apply(row, to: object)
        for attribute in layout.attributes where attributes[attribute.index] != old.attributes[attribute.index] {
            object.writeAttribute(attributes[attribute.index], at: attribute.index)
        }
        for relationship in layout.relationships {
            if relationship.isToMany {
                let storage = toMany.indices.contains(relationship.slotIndex) ? toMany[relationship.slotIndex] : nil
                object.toManyValues[relationship.slotIndex] = storage?.isChanged == true ? storage : nil
            } else if toOne[relationship.slotIndex] !== old.toOne[relationship.slotIndex] {
                object.writeToOne(toOne[relationship.slotIndex], at: relationship.slotIndex)
            }
        }
    }
}

extension StoredRow {
    /// Decodes the current result row for `layout` with one of its plans (`rowPlan` for `selectRowSQL`,
    /// `tablePlan` for `tableColumnsSQL`).
    @inlinable package static func decode<Row: StoreRow>(_ layout: EntityLayout, from statement: Row, plan: RowPlan) -> StoredRow {
        // An empty array literal allocates nothing: entities without to-one relationships skip the
        // allocation (and its run-time metadata lookup) altogether.
        var toOne: [(key: Int64, entityNumber: Int)?] =
            layout.toOneCount == 0 ? [] : Array(repeating: nil, count: layout.toOneCount)
        for reference in plan.toOnes { toOne[reference.slot] = plan.reference(reference, in: statement) }
        let entity = plan.entityPosition.map { Int(statement.int64($0)) } ?? layout.number
        return StoredRow(
            entityNumber: entity, version: plan.version(in: statement), attributes: plan.attributeValues(in: statement),
            toOne: toOne)
    }
}
