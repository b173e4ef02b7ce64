import CDQIPredicate

/// Writes one save inside its transaction. Anything it throws rolls the transaction back; it changes
/// no object (the context applies ``SaveResult`` after the commit).
struct SaveWriter {
    let context: ManagedObjectContext
    let connection: SQLiteConnection
    let schema: ModelLayout
    let plan: SavePlan
    var validation: SaveValidation
    /// Whether updated and deleted rows' versions are read and conflicts resolved before writing;
    /// otherwise the writes expect the versions the objects were read at (see ``run()``).
    let checksVersionsFirst: Bool
    var result = SaveResult()
    /// Prepared INSERTs by entity layout, for this save.
    private var insertStatements: [ObjectIdentifier: SQLiteStatement] = [:]
    /// The INSERT used last (inserts come in runs of one entity).
    private var lastInsert: (layout: ObjectIdentifier, statement: SQLiteStatement)?
    /// Prepared UPDATEs by entity layout and changed columns, for this save.
    private var updateStatements: [UpdateShape: SQLiteStatement] = [:]
    /// The UPDATE used last and its shape: updates of many objects mostly change the same columns, and
    /// comparing with it (in place: copying the shape out retained it) costs less than hashing.
    private var lastUpdate: (statement: SQLiteStatement, shape: UpdateShape)?

    private struct UpdateShape: Hashable {
        let layout: ObjectIdentifier
        /// ``RowChanges/shape``.
        let changes: [Int]
    }
    /// The changes of the row being updated (buffers reused for every row).
    private var changes = RowChanges()

    init(
        context: ManagedObjectContext, connection: SQLiteConnection, schema: ModelLayout, plan: SavePlan,
        validation: SaveValidation, checksVersionsFirst: Bool
    ) {
        self.context = context
        self.connection = connection
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
        try validation.checkUniquenessAgainstStore(plan.constrained, connection: connection, context: context)
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

    static func reference(to object: ManagedObject?) -> RowChanges.Reference? {
        guard let object, let key = key(of: object) else { return nil }
        return (key, object.entity.number)
    }

    /// Gives every inserted object the next keys of its hierarchy's `Z_PRIMARYKEY.Z_MAX`. A `Z_MAX`
    /// that is missing, not an integer, or too large for the keys needed is a damaged store (Core Data
    /// never writes one), reported as such rather than trapping or colliding with existing rows.
    private mutating func allocateKeys() throws {
        var byRoot: [Int: [ManagedObject]] = [:]
        for object in plan.inserted { byRoot[object.entity.rootNumber, default: []].append(object) }
        for (root, objects) in byRoot.sorted(by: { $0.key < $1.key }) {
            let name = schema.entity(number: root)?.name ?? "entity \(root)"
            func damaged(_ problem: String) -> ContextError {
                .store(.damagedStore(path: connection.path, reason: "Z_PRIMARYKEY.Z_MAX of \(name) (Z_ENT \(root)) \(problem)"))
            }
            let select = try connection.prepare("SELECT Z_MAX, typeof(Z_MAX) FROM Z_PRIMARYKEY WHERE Z_ENT = ?")
            try select.bind(Int64(root), at: 1)
            guard try select.step() else {
                select.reset()
                throw damaged("is missing: the table has no row for the entity")
            }
            let type = select.string(1)
            guard type == "integer" else {
                let shown = select.isNull(0) ? "NULL" : "'\(select.string(0))'"
                select.reset()
                throw damaged("is \(shown) (\(type)), not an integer")
            }
            var maximum = select.int64(0)
            select.reset()
            guard maximum >= 0 else { throw damaged("is negative (\(maximum))") }
            // Keys at or below Z_MAX are taken; a row above it means the bookkeeping lost track (one
            // indexed lookup: Z_PK is the table's primary key).
            if let table = schema.entity(number: root)?.tableName {
                let largest = try connection.prepare("SELECT MAX(Z_PK) FROM \(table)")
                if try largest.step(), !largest.isNull(0), largest.int64(0) > maximum {
                    let key = largest.int64(0)
                    largest.reset()
                    throw damaged("is \(maximum), below the largest Z_PK \(key) of \(table): new keys would collide")
                }
                largest.reset()
            }
            for object in objects {
                let (next, overflow) = maximum.addingReportingOverflow(1)
                if overflow {
                    throw damaged("is \(maximum): no keys left for \(objects.count) new object\(objects.count == 1 ? "" : "s")")
                }
                maximum = next
                object.allocatedKey = maximum
            }
            let update = try connection.prepare("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?")
            try update.bind(maximum, at: 1)
            try update.bind(Int64(root), at: 2)
            try update.run()
        }
    }

    // MARK: Rows

    /// The values the object would write now.
    func currentValues(of object: ManagedObject) -> RowValues {
        RowValues(attributes: object.attributeValues, toOne: object.toOneValues.map { Self.reference(to: $0) })
    }

    private mutating func insertRow(of object: ManagedObject) throws {
        let layout = object.entity
        guard let key = Self.key(of: object) else { return }
        // One statement per entity for the whole save: every stored column, in layout order (an order
        // key starts NULL; writeOrderKeys sets it).
        let statement = try insertStatement(for: layout)
        try statement.bind(key, at: 1)
        try statement.bind(Int64(layout.number), at: 2)
        try statement.bind(Int64(1), at: 3)
        var position = 4
        // Bound in place: copying each value out of the array cost more than binding it.
        try object.attributeValues.withUnsafeBufferPointer { values throws(SQLiteError) in
            for index in layout.storedAttributeIndices {
                try statement.bind(values[index], at: position)
                position += 1
            }
        }
        for relationship in layout.storedToOnes {
            position = try RowChanges.bind(
                Self.reference(to: object.toOneValues[relationship.slotIndex]), of: relationship, withOrder: true,
                to: statement, at: position)
        }
        try statement.run()
    }

    /// The INSERT of an entity's rows, prepared once per save.
    private mutating func insertStatement(for layout: EntityLayout) throws -> SQLiteStatement {
        if let last = lastInsert, last.layout == ObjectIdentifier(layout) { return last.statement }
        if let statement = insertStatements[ObjectIdentifier(layout)] {
            lastInsert = (ObjectIdentifier(layout), statement)
            return statement
        }
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"] + layout.storedAttributeIndices.compactMap { layout.attributes[$0].column }
        for relationship in layout.storedToOnes { columns += RowChanges.columns(of: relationship, withOrder: true) }
        let sql =
            "INSERT INTO \(layout.tableName) (\(columns.joined(separator: ", "))) VALUES ("
            + SQLText.placeholders(columns.count) + ")"
        let statement = try connection.prepare(sql)
        insertStatements[ObjectIdentifier(layout)] = statement
        lastInsert = (ObjectIdentifier(layout), statement)
        return statement
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
            guard let row = try StoredRow.read(object.entity, key: key, connection: connection, schema: schema) else {
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
                let statement = try connection.prepare(
                    "SELECT Z_PK, Z_OPT FROM \(table) WHERE Z_PK IN (\(SQLText.placeholders(chunk.count)))")
                defer { statement.reset() }
                for (offset, member) in chunk.enumerated() { try statement.bind(member.key, at: offset + 1) }
                var stored: [Int64: Int64] = [:]
                while try statement.step() { stored[statement.int64(0)] = statement.int64(1) }
                for member in chunk { versions[ObjectIdentifier(member.object)] = stored[member.key] }
            }
        }
        return versions
    }

    /// Writes ``changes`` (attribute values from `attributeValues`, by slot) to the object's row if the
    /// row is at version `expected`; `false` when it is not (changed or deleted elsewhere).
    private mutating func writeUpdate(of object: ManagedObject, attributeValues: [StoredValue], expected: Int64) throws -> Bool {
        guard let key = Self.key(of: object) else { return true }
        let layout = object.entity
        let statement = try updateStatement(for: layout)
        let position = try changes.bind(to: statement, layout: layout, attributeValues: attributeValues)
        try statement.bind(expected + 1, at: position)
        try statement.bind(key, at: position + 1)
        try statement.bind(expected, at: position + 2)
        try statement.run()
        guard connection.changes == 1 else { return false }
        // The object's new version is its snapshot's plus one unless a merge wrote over a newer row.
        if expected != object.snapshotVersion { result.versions[ObjectIdentifier(object)] = expected + 1 }
        return true
    }

    /// The UPDATE that writes ``changes`` to a row of `layout` (and the version), prepared once per
    /// save and shape: updates of many objects usually change the same columns.
    private mutating func updateStatement(for layout: EntityLayout) throws -> SQLiteStatement {
        if lastUpdate?.shape.layout == ObjectIdentifier(layout), lastUpdate?.shape.changes == changes.shape,
            let statement = lastUpdate?.statement
        {
            return statement
        }
        let shape = UpdateShape(layout: ObjectIdentifier(layout), changes: changes.shape)
        if let statement = updateStatements[shape] {
            lastUpdate = (statement, shape)
            return statement
        }
        let sql =
            "UPDATE \(layout.tableName) SET "
            + (changes.columns(of: layout) + ["Z_OPT"]).map { "\($0) = ?" }.joined(separator: ", ")
            + " WHERE Z_PK = ? AND Z_OPT = ?"
        let statement = try connection.prepare(sql)
        updateStatements[shape] = statement
        lastUpdate = (statement, shape)
        return statement
    }

    /// Deletes the object's row (only if it is at version `expected`, when given) and its join-table
    /// rows; `false` when a version was expected and the row is not at it (or gone).
    private func deleteRow(of object: ManagedObject, expecting expected: Int64?) throws -> Bool {
        guard let key = object.objectID.primaryKey else { return true }
        if let expected {
            try run("DELETE FROM \(object.entity.tableName) WHERE Z_PK = ? AND Z_OPT = ?", [.integer(key), .integer(expected)])
            guard connection.changes == 1 else { return false }
        } else {
            try run("DELETE FROM \(object.entity.tableName) WHERE Z_PK = ?", [.integer(key)])
        }
        for relationship in object.entity.relationships {
            guard let join = relationship.join else { continue }
            try run("DELETE FROM \(join.table.name) WHERE \(join.ownColumn) = ?", [.integer(key)])
        }
        return true
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
            try run(
                "DELETE FROM \(table.name) WHERE \(table.sourceColumn) = ? AND \(table.destinationColumn) = ?",
                [.integer(pair.source), .integer(pair.destination)])
        }
        for pair in inserts where !deletes.contains(pair) {
            guard let table = tables[pair.table] else { continue }
            try run(
                "INSERT OR IGNORE INTO \(table.name) (\(table.sourceColumn), \(table.destinationColumn)) VALUES (?, ?)",
                [.integer(pair.source), .integer(pair.destination)])
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
                        try run(
                            "UPDATE \(join.table.name) SET \(order) = ? WHERE \(join.ownColumn) = ? AND \(join.otherColumn) = ?",
                            [.integer(Int64(2048 + 1024 * position)), .integer(ownKey), .integer(memberKey)])
                    }
                } else if let inverseName = relationship.description.inverseName,
                    let destination = schema.entity(named: relationship.description.destinationEntityName),
                    let order = destination.relationship(named: inverseName)?.columns.order
                {
                    for (position, member) in members.enumerated() {
                        guard let memberKey = Self.key(of: member) else { continue }
                        try run(
                            "UPDATE \(destination.tableName) SET \(order) = ? WHERE Z_PK = ?",
                            [.integer(Int64(2048 + 1024 * position)), .integer(memberKey)])
                    }
                }
            }
        }
    }

    private func run(_ sql: String, _ values: [StoredValue]) throws {
        let statement = try connection.prepare(sql)
        try statement.bind(values)
        try statement.run()
    }
}
