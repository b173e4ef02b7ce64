import CDQIPredicate

/// A row as read from an entity table.
struct StoredRow {
    var entityNumber: Int
    var version: Int64
    var attributes: [StoredValue]
    /// Per to-one slot: the destination's primary key and entity number.
    var toOne: [(key: Int64, entityNumber: Int)?]
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
        let schema = coordinator.layout
        do {
            return try coordinator.withStore { store -> StoredRow? in
                try StoredRow.read(layout, key: key, connection: store.connection, schema: schema)
            }
        } catch {
            throw .store("\(error)")
        }
    }

    /// The ID of a row of entity `number` with primary key `key`.
    func objectID(entityNumber number: Int, key: Int64) -> ManagedObjectID? {
        coordinator.layout.entity(number: number).map {
            ManagedObjectID(entity: $0, storeIdentifier: coordinator.storeIdentifier, primaryKey: key)
        }
    }

    /// Fills an object's slots (to-many relationships left to load on use) and snapshot from a row.
    func apply(_ row: StoredRow, to object: ManagedObject) {
        let layout = object.entity
        object.attributeValues = row.attributes
        object.toOneValues = row.toOne.map { reference in
            reference.flatMap { objectID(entityNumber: $0.entityNumber, key: $0.key) }.map { self.object(with: $0) }
        }
        if object.toManyValues.count != layout.toManyCount {
            object.toManyValues = Array(repeating: nil, count: layout.toManyCount)
        }
        object.snapshot = Snapshot(attributes: object.attributeValues, toOne: object.toOneValues, version: row.version)
        object.isLoaded = true
    }

    /// Loads the members of a saved object's to-many relationship: whole rows, so that members that are
    /// faults are filled at once (no query per member).
    func loadToMany(of object: ManagedObject, _ relationship: RelationshipSlot) throws(ManagedObjectError) -> ToManyStorage {
        guard relationship.isStored, let key = object.objectID.primaryKey,
            let destination = coordinator.layout.entity(named: relationship.description.destinationEntityName),
            let query = ToManyQuery(relationship, destination: destination, ownerCount: 1)
        else {
            return ToManyStorage(objects: [], isOrdered: relationship.isOrdered)
        }
        let rows = try self.rows(query.sql, [key]).map { ($0.key, $0.row) }
        return ToManyStorage(objects: objects(from: rows), isOrdered: relationship.isOrdered)
    }

    /// The objects of rows read in one query, registered (one per ID); those not yet loaded are filled
    /// from their rows.
    func objects(from rows: [(key: Int64, row: StoredRow)]) -> [ManagedObject] {
        var objects: [ManagedObject] = []
        objects.reserveCapacity(rows.count)
        // One growth up front instead of a rehash every time the registry doubles (a profile of a
        // 100k-object fetch showed 5% of its instructions in those rehashes).
        registered.reserveCapacity(registered.count + rows.count)
        for (key, row) in rows {
            guard let id = objectID(entityNumber: row.entityNumber, key: key) else { continue }
            let object = self.object(with: id)
            if !object.isLoaded && object.entity.number == row.entityNumber {
                apply(row, to: object)
                object.awakeFromFetch()
            }
            objects.append(object)
        }
        return objects
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
            object.attributeValues[attribute.index] = attributes[attribute.index]
        }
        for relationship in layout.relationships {
            if relationship.isToMany {
                let storage = toMany.indices.contains(relationship.slotIndex) ? toMany[relationship.slotIndex] : nil
                object.toManyValues[relationship.slotIndex] = storage?.isChanged == true ? storage : nil
            } else if toOne[relationship.slotIndex] !== old.toOne[relationship.slotIndex] {
                object.toOneValues[relationship.slotIndex] = toOne[relationship.slotIndex]
            }
        }
    }
}

extension StoredRow {
    /// Reads the row with primary key `key` of an entity's table, or `nil` when there is none.
    static func read(
        _ layout: EntityLayout, key: Int64, connection: SQLiteConnection, schema: ModelLayout
    ) throws(SQLiteError) -> StoredRow? {
        let statement = try connection.prepare(layout.selectRowSQL)
        defer { statement.reset() }
        try statement.bind(key, at: 1)
        guard try statement.step() else { return nil }
        return decode(layout, from: statement, plan: layout.rowPlan)
    }

    /// Decodes the current result row for `layout` with one of its plans (`rowPlan` for `selectRowSQL`,
    /// `tablePlan` for `tableColumnsSQL`).
    static func decode(_ layout: EntityLayout, from statement: SQLiteStatement, plan: RowPlan) -> StoredRow {
        var attributes = [StoredValue](repeating: .null, count: layout.attributes.count)
        for attribute in plan.attributes {
            attributes[attribute.index] = ValueConversion.read(statement, at: attribute.position, type: attribute.type)
        }
        // An empty array literal allocates nothing: entities without to-one relationships skip the
        // allocation (and its run-time metadata lookup) altogether.
        var toOne: [(key: Int64, entityNumber: Int)?] =
            layout.toOneCount == 0 ? [] : Array(repeating: nil, count: layout.toOneCount)
        for reference in plan.toOnes where !statement.isNull(reference.position) {
            var number = reference.destinationNumber
            if let entityPosition = reference.entityPosition, !statement.isNull(entityPosition) {
                number = Int(statement.int64(entityPosition))
            }
            toOne[reference.slot] = (statement.int64(reference.position), number)
        }
        let entity = plan.entityPosition.map { Int(statement.int64($0)) } ?? layout.number
        let version = plan.versionPosition.map { statement.int64($0) } ?? 0
        return StoredRow(entityNumber: entity, version: version, attributes: attributes, toOne: toOne)
    }
}
