import CDQIPredicate

/// Writes one save inside its transaction. Anything it throws rolls the transaction back; it changes
/// no object (the context applies ``SaveResult`` after the commit).
@usableFromInline package struct SaveWriter {
    let context: ManagedObjectContext
    let transaction: any SaveTransaction
    let schema: ModelLayout
    let plan: SavePlan
    var validation: SaveValidation
    /// Whether updated and deleted rows' versions are read and conflicts resolved before writing;
    /// otherwise the writes expect the versions the objects were read at (see ``run()``).
    let checksVersionsFirst: Bool
    var result = SaveResult()
    /// The changes of the row being updated (buffers reused for every row).
    private var changes = RowChanges()

    init(
        context: ManagedObjectContext, transaction: any SaveTransaction, schema: ModelLayout, plan: SavePlan,
        validation: SaveValidation, checksVersionsFirst: Bool
    ) {
        self.context = context
        self.transaction = transaction
        self.schema = schema
        self.plan = plan
        self.validation = validation
        self.checksVersionsFirst = checksVersionsFirst
    }

    /// Thrown when a save that did not check versions first meets a row changed or deleted elsewhere:
    /// its transaction rolls back and the save runs again, checking versions first.
    struct StaleRow: Error {}

    /// Writes the save. Conflicts are rare, so a first run (``checksVersionsFirst`` false) writes every
    /// UPDATE and DELETE with the row version (`Z_OPT`) it expects in its WHERE clause and reads no
    /// version beforehand; the first row not at its expected version throws ``StaleRow``. The second
    /// run reads the versions first and resolves conflicts by the merge policy.
    mutating func run() throws -> SaveResult {
        try validation.checkUniquenessAgainstStore(plan.constrained, transaction: transaction, context: context)
        if !validation.failures.isEmpty { throw ContextError.validation(validation.failures) }
        // Keys first: the values written by updates (and merged by conflict resolution) refer to new
        // objects by their new keys.
        try allocateKeys()
        // Without a first check of the versions, each write expects the version its object was read at.
        let resolutions = checksVersionsFirst ? try resolveConflicts() : nil
        // Deletes first, so that a new or changed row may take values a deleted row held under a
        // uniqueness constraint.
        for object in plan.deleted {
            if resolutions != nil {
                _ = try deleteRow(of: object, expecting: nil)
            } else if let version = object.snapshotVersion, try !deleteRow(of: object, expecting: version) {
                throw StaleRow()
            }
        }
        for object in plan.inserted { try insertRow(of: object) }
        for object in plan.updated {
            if let resolutions {
                guard case .write(let values, let base, let expected)? = resolutions[ObjectIdentifier(object)] else { continue }
                changes.collect(values, against: base, layout: object.entity)
                guard try writeUpdate(of: object, attributeValues: values.attributes, expected: expected) else {
                    throw ContextError.mergeConflicts([
                        MergeConflict(
                            objectID: object.objectID, snapshotVersion: object.snapshotVersion ?? expected,
                            storeVersion: expected + 1)
                    ])
                }
            } else if let version = object.snapshotVersion {
                changes.collectAgainstSnapshot(of: object, reference: Self.reference(to:))
                guard try writeUpdate(of: object, attributeValues: object.attributeValues, expected: version) else {
                    throw StaleRow()
                }
            }
        }
        try writeJoinRows()
        try writeOrderKeys()
        return result
    }

    // MARK: Keys

    /// An object's primary key: the one this save allocated for an inserted object, else its ID's.
    static func key(of object: ManagedObject) -> Int64? {
        object.allocatedKey ?? object.objectID.primaryKey
    }

    @usableFromInline package static func reference(to object: ManagedObject?) -> RowChanges.Reference? {
        guard let object, let key = key(of: object) else { return nil }
        return (key, object.entity.number)
    }

    /// Gives every inserted object the next keys of its hierarchy (`Z_PRIMARYKEY.Z_MAX`).
    private mutating func allocateKeys() throws {
        var byRoot: [Int: [ManagedObject]] = [:]
        for object in plan.inserted { byRoot[object.entity.rootNumber, default: []].append(object) }
        for (root, objects) in byRoot.sorted(by: { $0.key < $1.key }) {
            guard let layout = schema.entity(number: root) else { continue }
            let keys = try transaction.allocateKeys(
                root: root, rootName: layout.name, tableName: layout.tableName, count: objects.count)
            for (object, key) in zip(objects, keys) { object.allocatedKey = key }
        }
    }

    // MARK: Rows

    /// Binds an inserted object's row to the columns of ``EntityLayout/insertColumns`` from parameter 1
    /// on: its key, entity number, version 1, its stored attributes, then each stored to-one's target
    /// (an order key starts NULL; the save sets it).
    @inlinable package static func bindInsert<Parameters: StoreParameters>(
        of object: ManagedObject, key: Int64, to parameters: inout Parameters
    ) throws {
        let layout = object.entity
        try parameters.bind(.integer(key), at: 1)
        try parameters.bind(.integer(Int64(layout.number)), at: 2)
        try parameters.bind(.integer(1), at: 3)
        var position = 4
        // Bound in place: copying each value out of the array cost more than binding it.
        try object.attributeValues.withUnsafeBufferPointer { values in
            for index in layout.storedAttributeIndices {
                try parameters.bind(values[index], at: position)
                position += 1
            }
        }
        for relationship in layout.storedToOnes {
            position = try RowChanges.bind(
                reference(to: object.toOneValues[relationship.slotIndex]), of: relationship, withOrder: true,
                to: &parameters, at: position)
        }
    }

    /// The values the object would write now.
    func currentValues(of object: ManagedObject) -> RowValues {
        RowValues(attributes: object.attributeValues, toOne: object.toOneValues.map { Self.reference(to: $0) })
    }

    private func insertRow(of object: ManagedObject) throws {
        guard let key = Self.key(of: object) else { return }
        try transaction.insertRow(of: object, key: key)
    }

    /// How an updated object is written.
    enum Resolution {
        /// Write `values` over `base` (the row as stored), expecting row version `expected`.
        case write(values: RowValues, base: RowValues, expected: Int64)
        /// Write nothing: the store's version wins (merge policy `.rollback`).
        case skip
    }

    private mutating func resolveConflicts() throws -> [ObjectIdentifier: Resolution] {
        var resolutions: [ObjectIdentifier: Resolution] = [:]
        var conflicts: [MergeConflict] = []
        let checked = plan.updated + plan.deleted
        let versions = try storedVersions(of: checked)
        for object in checked {
            guard let key = object.objectID.primaryKey, let snapshot = object.snapshot else { continue }
            let base = RowValues(attributes: snapshot.attributes, toOne: snapshot.toOne.map { Self.reference(to: $0) })
            let current = currentValues(of: object)
            if versions[ObjectIdentifier(object)] == snapshot.version {
                resolutions[ObjectIdentifier(object)] = .write(values: current, base: base, expected: snapshot.version)
                continue
            }
            // Changed or deleted elsewhere: the whole stored row decides what the merge policy does.
            guard let row = try transaction.readRow(of: object.entity, key: key) else {
                // A row deleted elsewhere: deleting it again is moot; changing it is a conflict for every policy.
                if !object.deletedFlag {
                    conflicts.append(MergeConflict(objectID: object.objectID, snapshotVersion: snapshot.version, storeVersion: 0))
                }
                continue
            }
            let stored = RowValues(attributes: row.attributes, toOne: row.toOne)
            if row.version == snapshot.version {
                resolutions[ObjectIdentifier(object)] = .write(values: current, base: base, expected: row.version)
                continue
            }
            if object.deletedFlag {
                if plan.policy == .error {
                    conflicts.append(
                        MergeConflict(
                            objectID: object.objectID, snapshotVersion: snapshot.version, storeVersion: row.version))
                }
                continue
            }
            switch plan.policy {
            case .error:
                conflicts.append(
                    MergeConflict(
                        objectID: object.objectID, snapshotVersion: snapshot.version, storeVersion: row.version))
            case .rollback:
                resolutions[ObjectIdentifier(object)] = .skip
                result.rolledBack.insert(ObjectIdentifier(object))
            case .overwrite:
                resolutions[ObjectIdentifier(object)] = .write(values: current, base: stored, expected: row.version)
            case .mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump:
                let objectWins = plan.policy == .mergeByPropertyObjectTrump
                var merged = current
                for index in merged.attributes.indices {
                    let objectChanged = current.attributes[index] != base.attributes[index]
                    let storeChanged = stored.attributes[index] != base.attributes[index]
                    if objectWins ? !objectChanged : storeChanged { merged.attributes[index] = stored.attributes[index] }
                }
                for index in merged.toOne.indices {
                    let objectChanged = !RowChanges.same(current.toOne[index], base.toOne[index])
                    let storeChanged = !RowChanges.same(stored.toOne[index], base.toOne[index])
                    if objectWins ? !objectChanged : storeChanged { merged.toOne[index] = stored.toOne[index] }
                }
                resolutions[ObjectIdentifier(object)] = .write(values: merged, base: stored, expected: row.version)
                result.merged[ObjectIdentifier(object)] = merged
            }
        }
        if !conflicts.isEmpty { throw ContextError.mergeConflicts(conflicts) }
        return resolutions
    }

    /// The stored row versions (`Z_OPT`) of saved objects, read one query per table and per
    /// ``SQLText/keysPerQuery`` keys; objects whose row is gone have none.
    private func storedVersions(of objects: [ManagedObject]) throws -> [ObjectIdentifier: Int64] {
        var byTable: [String: [(key: Int64, object: ManagedObject)]] = [:]
        for object in objects {
            guard let key = object.objectID.primaryKey else { continue }
            byTable[object.entity.tableName, default: []].append((key, object))
        }
        var versions: [ObjectIdentifier: Int64] = [:]
        for (table, members) in byTable {
            for chunk in members.chunked(SQLText.keysPerQuery) {
                let stored = try transaction.storedVersions(table: table, keys: chunk.map(\.key))
                for member in chunk { versions[ObjectIdentifier(member.object)] = stored[member.key] }
            }
        }
        return versions
    }

    /// Writes ``changes`` (attribute values from `attributeValues`, by slot) to the object's row if the
    /// row is at version `expected`; `false` when it is not (changed or deleted elsewhere).
    private mutating func writeUpdate(of object: ManagedObject, attributeValues: [StoredValue], expected: Int64) throws -> Bool {
        guard let key = Self.key(of: object) else { return true }
        guard
            try transaction.updateRow(
                of: object.entity, key: key, changes: changes, attributeValues: attributeValues, expected: expected)
        else { return false }
        // The object's new version is its snapshot's plus one unless a merge wrote over a newer row.
        if expected != object.snapshotVersion { result.versions[ObjectIdentifier(object)] = expected + 1 }
        return true
    }

    /// Deletes the object's row (only if it is at version `expected`, when given) and its join-table
    /// rows; `false` when a version was expected and the row is not at it (or gone).
    private func deleteRow(of object: ManagedObject, expecting expected: Int64?) throws -> Bool {
        guard let key = object.objectID.primaryKey else { return true }
        return try transaction.deleteRow(of: object.entity, key: key, expected: expected)
    }

    // MARK: Relationships

    /// The objects whose to-many changes are written (inserted, and updated unless rolled back).
    private var writtenObjects: [ManagedObject] {
        guard plan.writesRelationshipRows else { return [] }
        return (plan.inserted + plan.updated.filter { !result.rolledBack.contains(ObjectIdentifier($0)) })
            .filter(\.entity.writesRelationshipRows)
    }

    private func writeJoinRows() throws {
        struct Pair: Hashable {
            var table: String
            var source: Int64
            var destination: Int64
        }
        var inserts: [Pair] = []
        var insertSet: Set<Pair> = []
        var deletes: Set<Pair> = []
        var tables: [String: JoinTable] = [:]
        for object in writtenObjects where object.isLoaded {
            guard let ownKey = Self.key(of: object) else { continue }
            for relationship in object.entity.relationships {
                guard let join = relationship.join, let storage = object.toManyValues[relationship.slotIndex],
                    storage.isChanged
                else { continue }
                tables[join.table.name] = join.table
                let committed = storage.committed ?? []
                let committedMembers = Set(committed.map(ObjectIdentifier.init))
                func pair(_ other: ManagedObject) -> Pair? {
                    guard let otherKey = Self.key(of: other) else { return nil }
                    return join.isSource
                        ? Pair(table: join.table.name, source: ownKey, destination: otherKey)
                        : Pair(table: join.table.name, source: otherKey, destination: ownKey)
                }
                for member in storage.objects where !member.deletedFlag {
                    guard !committedMembers.contains(ObjectIdentifier(member)), let pair = pair(member) else { continue }
                    if insertSet.insert(pair).inserted { inserts.append(pair) }
                }
                for member in committed where !storage.contains(member) {
                    if let pair = pair(member) { deletes.insert(pair) }
                }
            }
        }
        for pair in deletes.sorted(by: { ($0.table, $0.source, $0.destination) < ($1.table, $1.source, $1.destination) }) {
            guard let table = tables[pair.table] else { continue }
            try transaction.deleteJoinRow(table, source: pair.source, destination: pair.destination)
        }
        for pair in inserts where !deletes.contains(pair) {
            guard let table = tables[pair.table] else { continue }
            try transaction.insertJoinRow(table, source: pair.source, destination: pair.destination)
        }
    }

    /// Rewrites the `Z_FOK_` keys of every ordered relationship that changed: 2048, 3072, 4096, …
    private func writeOrderKeys() throws {
        for object in writtenObjects where object.isLoaded {
            guard let ownKey = Self.key(of: object) else { continue }
            for relationship in object.entity.relationships where relationship.isOrdered {
                guard let storage = object.toManyValues[relationship.slotIndex], storage.isChanged else { continue }
                let members = storage.objects.filter { !$0.deletedFlag }
                if let join = relationship.join {
                    guard let order = join.table.orderColumn else { continue }
                    for (position, member) in members.enumerated() {
                        guard let memberKey = Self.key(of: member) else { continue }
                        try transaction.setOrderKey(
                            table: join.table.name, column: order, value: Int64(2048 + 1024 * position),
                            keyColumns: [join.ownColumn, join.otherColumn], keys: [ownKey, memberKey])
                    }
                } else if let inverseName = relationship.description.inverseName,
                    let destination = schema.entity(named: relationship.description.destinationEntityName),
                    let order = destination.relationship(named: inverseName)?.columns.order
                {
                    for (position, member) in members.enumerated() {
                        guard let memberKey = Self.key(of: member) else { continue }
                        try transaction.setOrderKey(
                            table: destination.tableName, column: order, value: Int64(2048 + 1024 * position),
                            keyColumns: ["Z_PK"], keys: [memberKey])
                    }
                }
            }
        }
    }
}
