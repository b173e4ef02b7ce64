import CDQIModel
import CDQIPredicate
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a migration did.
public struct MigrationReport: Sendable {
    /// The changes carried out (empty when the store was already compatible).
    public var changes: [ModelChange]
    /// Whether the store already matched the destination, so that nothing was written.
    public var wasAlreadyCompatible: Bool
    /// The objects copied into the migrated store.
    public var objectCount: Int
}

/// Lightweight migration of a SQLite store from one model version to the next (reference
/// `coredata-migration.md` §3.2).
///
/// The plan comes first: the ``ModelDiff`` of the two models; when a change cannot be inferred, the
/// migration is refused naming every such change, and nothing is opened for writing. Then a fresh store
/// of the destination model is built beside the original (`<store>.cdqi-migrating`), so its tables,
/// indexes, entity numbers and `Z_PRIMARYKEY` rows are exactly a fresh store's; every surviving object is
/// copied into it by SQL in one transaction (same `Z_PK`, `Z_OPT` and store UUID, renamed properties
/// followed, defaults filled in, entity numbers renumbered, objects moved to their entity's new
/// hierarchy table, links to objects that are no longer of the linked entity dropped), `Z_MAX` and the metadata (destination
/// hashes, the source's other keys) are carried over, and the new file is synced and renamed over the
/// original. Until that rename the original is only checkpointed (its WAL folded in, journal mode set
/// to DELETE, which also proves no other connection has it open), so a failure leaves its content as it
/// was.
public enum StoreMigration {
    /// Migrates the store at `url`, written by `source`, to `destination`.
    ///
    /// - Parameter progress: called after each destination entity and join table is copied, with the
    ///   number done and the total.
    /// - Throws: ``MigrationError`` naming the problem; the original store is then unchanged. An entity
    ///   made abstract while the store holds objects of it is refused before anything is opened for
    ///   writing (``MigrationError/abstractEntityHasObjects(store:entity:version:count:)``).
    @discardableResult
    public static func migrateStore(
        at url: URL, from source: ManagedObjectModel, to destination: ManagedObjectModel,
        progress: ((_ completed: Int, _ total: Int) -> Void)? = nil
    ) throws(MigrationError) -> MigrationReport {
        let path = url.path
        let metadata: StoreMetadata
        do { metadata = try StoreMetadata.read(from: url) } catch { throw .store(error) }
        if metadata.isCompatible(with: destination) {
            return MigrationReport(changes: [], wasAlreadyCompatible: true, objectCount: 0)
        }
        let differences = metadata.incompatibilities(with: source)
        guard differences.isEmpty else { throw .sourceMismatch(store: path, differences: differences) }
        let diff = ModelDiff(from: source, to: destination)
        guard diff.refusals.isEmpty else {
            throw .notInferable(
                from: source.versionName ?? "the store's model", to: destination.versionName ?? "the new model",
                changes: diff.refusals)
        }
        try AbstractEntityCheck.check(
            steps: [
                MigrationStep(
                    sourceVersion: source.versionName, destinationVersion: destination.versionName, source: source,
                    destination: destination, changes: diff.changes)
            ], store: url)
        var copier = Copier(diff: diff, path: path)
        let count = try copier.run(url: url, progress: progress)
        return MigrationReport(changes: diff.changes, wasAlreadyCompatible: false, objectCount: count)
    }

    /// The suffix of the store being built beside the original.
    static let temporarySuffix = ".cdqi-migrating"
}

/// Builds the destination store beside the original and copies the objects into it.
private struct Copier {
    let diff: ModelDiff
    let path: String
    let sourceSchema: StoreSchema
    let destinationSchema: StoreSchema
    /// Source entity number → destination entity number, for every matched entity.
    let numbers: [(source: Int, destination: Int)]
    /// Destination entity number → source entity number, for every matched entity.
    let sourceNumbers: [Int: Int]

    init(diff: ModelDiff, path: String) {
        self.diff = diff
        self.path = path
        sourceSchema = StoreSchema(model: diff.source)
        destinationSchema = StoreSchema(model: diff.destination)
        var numbers: [(Int, Int)] = []
        for (target, original) in diff.entityMatches.sorted(by: { $0.key < $1.key }) {
            if let from = sourceSchema.entity(named: original)?.number, let to = destinationSchema.entity(named: target)?.number {
                numbers.append((from, to))
            }
        }
        self.numbers = numbers
        sourceNumbers = Dictionary(numbers.map { ($0.1, $0.0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The source entity numbers of the objects a reference to the destination entity `name` keeps (the
    /// source counterparts of it and its sub-entities), and whether a source reference to its counterpart
    /// could name objects outside them: objects of an entity that left the hierarchy, which stop being
    /// valid targets, so their links are dropped (a link kept would name a row of another table, or the
    /// wrong kind of object).
    ///
    /// - Parameter sourceName: the source entity the links pointed at, when not `name`'s counterpart (a
    ///   relationship retargeted to a new parent of its old destination).
    func linkKinds(ofDestination name: String, from sourceName: String? = nil) -> (kept: [Int], dropsSome: Bool) {
        let kept = (destinationSchema.entity(named: name)?.numbersIncludingSubentities ?? []).compactMap { sourceNumbers[$0] }.sorted()
        let before = (sourceName ?? diff.entityMatches[name]).flatMap { sourceSchema.entity(named: $0)?.numbersIncludingSubentities } ?? []
        return (kept, !Set(before).isSubset(of: kept))
    }

    /// The destination entity of the source counterpart of the relationship `name` of the destination
    /// entity `entityName`.
    func sourceDestination(ofRelationship name: String, of entityName: String) -> String? {
        guard let original = diff.entityMatches[entityName].flatMap({ diff.source.entity(named: $0) }),
            let oldName = diff.propertyMatches[entityName]?[name]
        else { return nil }
        return diff.source.allRelationships(of: original).first { $0.name == oldName }?.destinationEntityName
    }

    /// `expression IN (?, …)` over the numbers, with the numbers to bind; `0` (false) for none.
    static func isAmong(_ expression: String, _ numbers: [Int]) -> (sql: String, values: [StoredValue]) {
        guard !numbers.isEmpty else { return ("0", []) }
        return ("\(expression) IN (\(numbers.map { _ in "?" }.joined(separator: ", ")))", numbers.map { StoredValue.integer(Int64($0)) })
    }

    mutating func run(url: URL, progress: ((Int, Int) -> Void)?) throws(MigrationError) -> Int {
        let temporary = URL(fileURLWithPath: path + StoreMigration.temporarySuffix)
        removeTemporary(temporary)
        let connection: SQLiteConnection
        do {
            connection = try SQLiteConnection(path: path, mode: .readWrite, busyTimeout: 200)
        } catch {
            throw .sqlite(store: path, error)
        }
        let originalMode = (try? scalarText(connection, "PRAGMA journal_mode")) ?? "wal"
        var switchedMode = false
        do {
            // Fold the WAL into the file and leave WAL mode: impossible while another connection has the
            // store open, which is how such a store is refused.
            let checkpoint = try connection.prepareUncached("PRAGMA wal_checkpoint(TRUNCATE)")
            if try checkpoint.step(), checkpoint.int64(0) != 0 { throw MigrationError.storeBusy(store: path) }
            checkpoint.reset()
            let mode = try scalarText(connection, "PRAGMA journal_mode = DELETE")
            guard mode.lowercased() == "delete" else { throw MigrationError.storeBusy(store: path) }
            switchedMode = originalMode.lowercased() != "delete"
            do {
                _ = try SQLiteStore(model: diff.destination, url: temporary)
            } catch {
                throw MigrationError.store(error)
            }
            let attach = try connection.prepareUncached("ATTACH DATABASE ? AS target")
            try attach.bind(temporary.path, at: 1)
            try attach.run()
            // The new file is thrown away unless the copy commits, so it needs no write-ahead log: with a
            // rollback journal its pages are written once (a fresh file's journal records almost nothing),
            // not into the WAL and again at the checkpoint. It is a WAL store again before the swap.
            _ = try scalarText(connection, "PRAGMA target.journal_mode = DELETE")
            let count: Int
            do {
                count = try connection.transaction(exclusive: true) { () throws -> Int in
                    try checkRequiredValues(connection)
                    return try copy(connection, progress: progress)
                }
            } catch {
                try? connection.execute("DETACH DATABASE target")
                throw error
            }
            _ = try scalarText(connection, "PRAGMA target.journal_mode = WAL")
            try connection.execute("DETACH DATABASE target")
            // Hold the original against other writers while the new file replaces it.
            try connection.execute("BEGIN EXCLUSIVE")
            defer { try? connection.execute("ROLLBACK") }
            try sync(temporary)
            guard rename(temporary.path, path) == 0 else {
                throw MigrationError.fileSystem(store: path, reason: "cannot rename the migrated store over the original: \(String(cString: strerror(errno)))")
            }
            syncDirectory(of: url)
            return count
        } catch {
            removeTemporary(temporary)
            if switchedMode { _ = try? scalarText(connection, "PRAGMA journal_mode = \(originalMode.lowercased() == "wal" ? "WAL" : "DELETE")") }
            throw Self.migrationError(error, path: path)
        }
    }

    static func migrationError(_ error: any Error, path: String) -> MigrationError {
        if let error = error as? MigrationError { return error }
        if let error = error as? SQLiteError {
            if error.code == 5 || error.code == 6 { return .storeBusy(store: path) }  // SQLITE_BUSY, SQLITE_LOCKED
            if error.code == 19 { return .constraintViolation(store: path, reason: error.message) }
            return .sqlite(store: path, error)
        }
        if let error = error as? StoreError { return .store(error) }
        return .fileSystem(store: path, reason: "\(error)")
    }

    // MARK: Checks

    /// Objects lacking a value the destination requires without a default (Core Data's 134110).
    private func checkRequiredValues(_ connection: SQLiteConnection) throws {
        var problems: [String] = []
        for entity in diff.destination.entities {
            guard let sourceName = diff.entityMatches[entity.name], let target = destinationSchema.entity(named: entity.name),
                let origin = sourceSchema.entity(named: sourceName)
            else { continue }
            let matches = diff.propertyMatches[entity.name] ?? [:]
            var checks: [(property: String, column: String?)] = []
            for attribute in diff.destination.allAttributes(of: entity) where !attribute.isTransient && !attribute.isOptional {
                guard ValueConversion.defaultValue(of: attribute) == .null else { continue }
                if let old = matches[attribute.name] {
                    if diff.source.allAttributes(of: diff.source.entity(named: sourceName) ?? entity).first(where: { $0.name == old })?.isOptional == true {
                        checks.append((attribute.name, origin.columns[old]?.value))
                    }
                } else {
                    checks.append((attribute.name, nil))
                }
            }
            for relationship in diff.destination.allRelationships(of: entity)
            where !relationship.isTransient && !relationship.isOptional && !relationship.isToMany {
                if let old = matches[relationship.name] {
                    let wasOptional =
                        diff.source.allRelationships(of: diff.source.entity(named: sourceName) ?? entity)
                        .first(where: { $0.name == old })?.isOptional == true
                    if wasOptional { checks.append((relationship.name, origin.columns[old]?.value)) }
                } else {
                    checks.append((relationship.name, nil))
                }
            }
            _ = target
            for check in checks {
                var sql = "SELECT COUNT(*) FROM main.\(origin.tableName) WHERE Z_ENT = ?"
                if let column = check.column { sql += " AND \(column) IS NULL" }
                let statement = try connection.prepareUncached(sql)
                try statement.bind(Int64(origin.number), at: 1)
                if try statement.step(), statement.int64(0) > 0 {
                    problems.append("\(statement.int64(0)) \(entity.name) object(s) have no value for required \(check.property), which has no default")
                }
            }
        }
        problems += try requiredLinksDropped(connection)
        if !problems.isEmpty { throw MigrationError.missingValues(store: path, problems: problems) }
    }

    /// Objects whose required to-one names an object that leaves the destination entity's hierarchy:
    /// the link is dropped, so the relationship would have no value.
    private func requiredLinksDropped(_ connection: SQLiteConnection) throws -> [String] {
        var problems: [String] = []
        for entity in diff.destination.entities {
            guard let sourceName = diff.entityMatches[entity.name], let origin = sourceSchema.entity(named: sourceName) else { continue }
            let matches = diff.propertyMatches[entity.name] ?? [:]
            for relationship in diff.destination.allRelationships(of: entity)
            where !relationship.isTransient && !relationship.isOptional && !relationship.isToMany {
                guard let old = matches[relationship.name], let entityColumn = origin.columns[old]?.entity else { continue }
                let kinds = linkKinds(
                    ofDestination: relationship.destinationEntityName, from: sourceDestination(ofRelationship: relationship.name, of: entity.name))
                guard kinds.dropsSome else { continue }
                let kept = Self.isAmong(entityColumn, kinds.kept)
                let statement = try connection.prepareUncached(
                    "SELECT COUNT(*) FROM main.\(origin.tableName) WHERE Z_ENT = ? AND \(entityColumn) IS NOT NULL AND NOT (\(kept.sql))")
                try statement.bind([.integer(Int64(origin.number))] + kept.values)
                if try statement.step(), statement.int64(0) > 0 {
                    problems.append(
                        "\(statement.int64(0)) \(entity.name) object(s) have a required \(relationship.name) naming an object that is no "
                            + "longer of entity \(relationship.destinationEntityName) (it left the hierarchy)")
                }
            }
        }
        return problems
    }

    // MARK: Copying

    private func copy(_ connection: SQLiteConnection, progress: ((Int, Int) -> Void)?) throws -> Int {
        let entities = diff.destination.entities.filter { diff.entityMatches[$0.name] != nil }
        let total = entities.count + destinationSchema.joinTables.count
        var done = 0
        var copied = 0
        for entity in entities {
            copied += try copyRows(of: entity, connection)
            done += 1
            progress?(done, total)
        }
        for join in destinationSchema.joinTables {
            try copyJoinTable(join, connection)
            done += 1
            progress?(done, total)
        }
        try carryPrimaryKeys(connection)
        try writeMetadata(connection)
        return copied
    }

    private func sourceColumns(_ table: String, _ connection: SQLiteConnection) throws -> Set<String> {
        let info = try connection.prepareUncached("SELECT name FROM main.pragma_table_info(?)")
        try info.bind(table, at: 1)
        var names: Set<String> = []
        while try info.step() { names.insert(info.string(0)) }
        return names
    }

    private func copyRows(of entity: EntityDescription, _ connection: SQLiteConnection) throws -> Int {
        guard let sourceName = diff.entityMatches[entity.name], let original = diff.source.entity(named: sourceName),
            let target = destinationSchema.entity(named: entity.name), let origin = sourceSchema.entity(named: sourceName)
        else { return 0 }
        let available = try sourceColumns(origin.tableName, connection)
        let matches = diff.propertyMatches[entity.name] ?? [:]
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
        var expressions = ["s.Z_PK", "?", "s.Z_OPT"]
        var values: [StoredValue] = [.integer(Int64(target.number))]
        func sourceColumn(_ name: String?) throws -> String? {
            guard let name else { return nil }
            guard available.contains(name) else {
                throw MigrationError.sourceMismatch(store: path, differences: ["table \(origin.tableName) has no column \(name)"])
            }
            return "s.\(name)"
        }
        for attribute in diff.destination.allAttributes(of: entity) where !attribute.isTransient {
            guard let column = target.columns[attribute.name]?.value else { continue }
            let fallback = ValueConversion.defaultValue(of: attribute)
            let old = try matches[attribute.name].flatMap { name throws in try sourceColumn(origin.columns[name]?.value) }
            switch (old, fallback) {
            case (let old?, .null):
                columns.append(column)
                expressions.append(old)
            case (let old?, _):
                let wasOptional =
                    matches[attribute.name].flatMap { name in
                        diff.source.allAttributes(of: original).first { $0.name == name }?.isOptional
                    } ?? true
                columns.append(column)
                if !attribute.isOptional && wasOptional {
                    expressions.append("COALESCE(\(old), ?)")
                    values.append(fallback)
                } else {
                    expressions.append(old)
                }
            case (nil, .null):
                continue
            case (nil, _):
                columns.append(column)
                expressions.append("?")
                values.append(fallback)
            }
        }
        for relationship in diff.destination.allRelationships(of: entity) where !relationship.isTransient && !relationship.isToMany {
            guard let targetColumns = target.columns[relationship.name], let value = targetColumns.value,
                let oldName = matches[relationship.name], let oldColumns = origin.columns[oldName]
            else { continue }
            let oldValue: String
            if let column = try sourceColumn(oldColumns.value) {
                oldValue = column
            } else if let link = try formerToManyLink(sourceName, oldName, connection) {
                // Was to-many (many-to-many): keep one linked object, the first created.
                oldValue = "(SELECT MIN(j.\(link.other)) FROM main.\(link.table) AS j WHERE j.\(link.own) = s.Z_PK)"
            } else {
                continue
            }
            // The source entity of the object linked to, and the links kept: those to objects that are
            // still of the relationship's destination entity.
            let linkedEntity = sourceDestination(ofRelationship: relationship.name, of: entity.name)
            let oldEntity = try sourceColumn(oldColumns.entity) ?? otherEntityExpression(relationship, oldValue, linkedEntity)
            let kinds = linkKinds(ofDestination: relationship.destinationEntityName, from: linkedEntity)
            var linked: (sql: String, values: [StoredValue]) = (oldValue, [])
            var keep: (sql: String, values: [StoredValue])?
            if kinds.dropsSome, let oldEntity {
                let condition = Self.isAmong(oldEntity, kinds.kept)
                keep = condition
                linked = ("CASE WHEN \(condition.sql) THEN \(oldValue) END", condition.values)
            }
            columns.append(value)
            expressions.append(linked.sql)
            values += linked.values
            if let entityColumn = targetColumns.entity {
                columns.append(entityColumn)
                if let oldEntity {
                    let pairs = numbers.filter { kinds.kept.contains($0.source) }
                    expressions.append("CASE \(oldEntity) " + pairs.map { _ in "WHEN ? THEN ? " }.joined() + "ELSE NULL END")
                    for pair in pairs {
                        values.append(.integer(Int64(pair.source)))
                        values.append(.integer(Int64(pair.destination)))
                    }
                } else {
                    let number = destinationSchema.entity(named: relationship.destinationEntityName)?.number ?? 0
                    expressions.append("CASE WHEN \(linked.sql) IS NULL THEN NULL ELSE ? END")
                    values += linked.values
                    values.append(.integer(Int64(number)))
                }
            }
            if let orderColumn = targetColumns.order {
                columns.append(orderColumn)
                if let old = try sourceColumn(oldColumns.order) {
                    if let keep {
                        expressions.append("CASE WHEN \(keep.sql) THEN \(old) END")
                        values += keep.values
                    } else {
                        expressions.append(old)
                    }
                } else {
                    // A newly ordered relationship keeps the objects in the order they were created.
                    expressions.append("CASE WHEN \(linked.sql) IS NULL THEN NULL ELSE s.Z_PK END")
                    values += linked.values
                }
            }
        }
        let sql =
            "INSERT INTO target.\(target.tableName) (\(columns.joined(separator: ", "))) SELECT "
            + expressions.joined(separator: ", ") + " FROM main.\(origin.tableName) AS s WHERE s.Z_ENT = ?"
        values.append(.integer(Int64(origin.number)))
        let statement = try connection.prepareUncached(sql)
        try statement.bind(values)
        try statement.run()
        return connection.changes
    }

    /// The join table a source to-many relationship was stored in: its name, the column of this side's
    /// objects and the column of the other side's.
    private func formerToManyLink(
        _ entityName: String, _ relationshipName: String, _ connection: SQLiteConnection
    ) throws -> (table: String, own: String, other: String)? {
        guard let origin = sourceSchema.entity(named: entityName), let tableName = origin.columns[relationshipName]?.joinTable,
            let old = sourceSchema.joinTables.first(where: { $0.name == tableName })
        else { return nil }
        let lineage = Set([entityName] + (diff.source.entity(named: entityName).map { diff.source.ancestors(of: $0).map(\.name) } ?? []))
        let sameSide = old.relationship == relationshipName && lineage.contains(old.sourceEntity)
        return (old.name, sameSide ? old.sourceColumn : old.destinationColumn, sameSide ? old.destinationColumn : old.sourceColumn)
    }

    /// The source entity number of the object a to-one now points at, read from its source row
    /// (`sourceName` is the entity the source relationship pointed at).
    private func otherEntityExpression(_ relationship: RelationshipDescription, _ value: String, _ sourceName: String?) throws -> String? {
        guard let sourceDestination = sourceName ?? diff.entityMatches[relationship.destinationEntityName],
            let table = sourceSchema.entity(named: sourceDestination)?.tableName
        else { return nil }
        return "(SELECT o.Z_ENT FROM main.\(table) AS o WHERE o.Z_PK = \(value))"
    }

    /// Fills a destination join table from the relationship's source counterparts: the naming entity's
    /// own, and those of its sub-entities that existed (a relationship moved up to a new parent, or to an
    /// entity that did not have it), each source relationship once.
    private func copyJoinTable(_ join: JoinTable, _ connection: SQLiteConnection) throws {
        guard let named = diff.destination.entity(named: join.sourceEntity) else { return }
        var copied: Set<String> = []
        for entity in [named] + descendants(of: named) {
            guard let sourceName = diff.entityMatches[entity.name], let original = diff.source.entity(named: sourceName),
                let oldName = diff.propertyMatches[entity.name]?[join.relationship]
            else { continue }
            let declaring =
                ([original] + diff.source.ancestors(of: original)).first { $0.relationships.contains { $0.name == oldName } }?.name ?? sourceName
            guard copied.insert("\(declaring).\(oldName)").inserted else { continue }
            let otherSource = diff.source.allRelationships(of: original).first { $0.name == oldName }?.destinationEntityName
            try copyJoinTable(join, from: declaring, oldName: oldName, otherSource: otherSource, connection)
        }
    }

    /// The entity's descendants in the destination model, each once.
    private func descendants(of entity: EntityDescription) -> [EntityDescription] {
        var found: [EntityDescription] = []
        var seen: Set<String> = [entity.name]
        var pending = diff.destination.subentities(of: entity)
        while !pending.isEmpty {
            let next = pending.removeFirst()
            guard seen.insert(next.name).inserted else { continue }
            found.append(next)
            pending += diff.destination.subentities(of: next)
        }
        return found
    }

    /// Copies the links of the source relationship `oldName` of `sourceName` (the entity declaring it)
    /// into the destination join table.
    private func copyJoinTable(
        _ join: JoinTable, from sourceName: String, oldName: String, otherSource: String?, _ connection: SQLiteConnection
    ) throws {
        guard let origin = sourceSchema.entity(named: sourceName) else { return }
        guard let oldTableName = origin.columns[oldName]?.joinTable,
            let old = sourceSchema.joinTables.first(where: { $0.name == oldTableName })
        else {
            try fillJoinTableFromForeignKey(join, sourceName: sourceName, oldName: oldName, otherSource: otherSource, connection)
            return
        }
        let lineage = Set([sourceName] + (diff.source.entity(named: sourceName).map { diff.source.ancestors(of: $0).map(\.name) } ?? []))
        let sameSide = old.relationship == oldName && lineage.contains(old.sourceEntity)
        let first = sameSide ? old.sourceColumn : old.destinationColumn
        let second = sameSide ? old.destinationColumn : old.sourceColumn
        var columns = [join.sourceColumn, join.destinationColumn]
        var expressions = [first, second]
        if let order = join.orderColumn {
            columns.append(order)
            expressions.append(old.orderColumn ?? "rowid")
        }
        let kept = keptLinks(of: join, first: first, second: second, ownSource: sourceName, otherSource: otherSource)
        let statement = try connection.prepareUncached(
            "INSERT INTO target.\(join.name) (\(columns.joined(separator: ", "))) SELECT \(expressions.joined(separator: ", ")) FROM main.\(old.name)"
                + kept.sql)
        try statement.bind(kept.values)
        try statement.run()
    }

    /// A `WHERE` clause (empty when nothing is dropped) keeping the links of a join table whose
    /// objects are still of the join's two entities: links of objects that left either side's
    /// hierarchy are dropped. `first` and `second` are the source columns of the two sides' keys,
    /// `ownSource` and `otherSource` the source entities whose objects they name.
    private func keptLinks(
        of join: JoinTable, first: String, second: String, ownSource: String, otherSource: String?
    ) -> (sql: String, values: [StoredValue]) {
        var conditions: [String] = []
        var values: [StoredValue] = []
        let otherEntity = diff.destination.entity(named: join.sourceEntity).flatMap { entity in
            diff.destination.allRelationships(of: entity).first { $0.name == join.relationship }?.destinationEntityName
        }
        for (column, entityName, sourceName) in [(first, join.sourceEntity, ownSource), (second, otherEntity, otherSource)] {
            guard let entityName, let table = sourceName.flatMap({ sourceSchema.entity(named: $0)?.tableName }) else { continue }
            let kinds = linkKinds(ofDestination: entityName, from: sourceName)
            guard kinds.dropsSome else { continue }
            let kept = Self.isAmong("o.Z_ENT", kinds.kept)
            conditions.append("\(column) IN (SELECT o.Z_PK FROM main.\(table) AS o WHERE \(kept.sql))")
            values += kept.values
        }
        return (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "), values)
    }

    /// A many-to-many relationship that was one-to-many: one link per non-NULL foreign key of the source.
    private func fillJoinTableFromForeignKey(
        _ join: JoinTable, sourceName: String, oldName: String, otherSource: String?, _ connection: SQLiteConnection
    ) throws {
        guard let entity = diff.source.entity(named: sourceName),
            let relationship = diff.source.allRelationships(of: entity).first(where: { $0.name == oldName }),
            let origin = sourceSchema.entity(named: sourceName)
        else { return }
        // Pairs (object of the join's naming side, object of the other side), and the order of the link.
        let select: String
        if !relationship.isToMany, let column = origin.columns[oldName]?.value {
            let order = origin.columns[oldName]?.order ?? "Z_PK"
            select = "SELECT Z_PK AS a, \(column) AS b, \(order) AS c FROM main.\(origin.tableName) WHERE \(column) IS NOT NULL"
        } else if let inverseName = relationship.inverseName,
            let other = sourceSchema.entity(named: relationship.destinationEntityName),
            let column = other.columns[inverseName]?.value
        {
            let order = other.columns[inverseName]?.order ?? "Z_PK"
            select = "SELECT \(column) AS a, Z_PK AS b, \(order) AS c FROM main.\(other.tableName) WHERE \(column) IS NOT NULL"
        } else {
            return
        }
        var columns = [join.sourceColumn, join.destinationColumn]
        if let order = join.orderColumn { columns.append(order) }
        let kept = keptLinks(of: join, first: "a", second: "b", ownSource: sourceName, otherSource: otherSource)
        let statement = try connection.prepareUncached(
            "INSERT INTO target.\(join.name) (\(columns.joined(separator: ", "))) SELECT "
                + (join.orderColumn == nil ? "a, b" : "a, b, c") + " FROM (\(select))" + kept.sql)
        try statement.bind(kept.values)
        try statement.run()
    }

    /// `Z_MAX` of every matched entity: a root's is the largest `Z_MAX` of the source hierarchies its
    /// objects come from (one, since hierarchies never merge), so no key that was handed out is handed
    /// out again, and at least the largest `Z_PK` of its table; a sub-entity keeps its own when it was
    /// one before, and otherwise has a fresh store's 0.
    private func carryPrimaryKeys(_ connection: SQLiteConnection) throws {
        let read = try connection.prepareUncached("SELECT Z_MAX FROM main.Z_PRIMARYKEY WHERE Z_ENT = ?")
        func sourceMaximum(_ number: Int) throws -> Int64? {
            read.reset()
            try read.bind(Int64(number), at: 1)
            guard try read.step(), !read.isNull(0) else { return nil }
            return read.int64(0)
        }
        var maxima: [Int: Int64] = [:]
        for pair in numbers {
            guard let origin = sourceSchema.entity(number: pair.source), let target = destinationSchema.entity(number: pair.destination)
            else { continue }
            if target.superNumber != 0, origin.superNumber != 0, let maximum = try sourceMaximum(pair.source) {
                maxima[pair.destination] = maximum
            }
            let sourceRoot = Self.rootNumber(of: pair.source, in: sourceSchema)
            let targetRoot = Self.rootNumber(of: pair.destination, in: destinationSchema)
            if let maximum = try sourceMaximum(sourceRoot) { maxima[targetRoot] = max(maxima[targetRoot] ?? 0, maximum) }
        }
        let write = try connection.prepareUncached("UPDATE target.Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?")
        for (number, maximum) in maxima.sorted(by: { $0.key < $1.key }) {
            write.reset()
            try write.bind(maximum, at: 1)
            try write.bind(Int64(number), at: 2)
            try write.run()
        }
        for entity in destinationSchema.entities where entity.superNumber == 0 {
            let raise = try connection.prepareUncached(
                "UPDATE target.Z_PRIMARYKEY SET Z_MAX = MAX(IFNULL(Z_MAX, 0), (SELECT IFNULL(MAX(Z_PK), 0) FROM target.\(entity.tableName))) WHERE Z_ENT = ?")
            try raise.bind(Int64(entity.number), at: 1)
            try raise.run()
        }
    }

    /// The number of the root of an entity's hierarchy (the entity itself when the chain is broken).
    static func rootNumber(of number: Int, in schema: StoreSchema) -> Int {
        var current = number
        for _ in schema.entities {
            guard let entity = schema.entity(number: current), entity.superNumber != 0 else { return current }
            current = entity.superNumber
        }
        return number
    }

    /// The source's `Z_METADATA` row (UUID and every other key) with the destination's version keys.
    private func writeMetadata(_ connection: SQLiteConnection) throws {
        let row = try connection.prepareUncached("SELECT Z_UUID, Z_PLIST FROM main.Z_METADATA WHERE Z_VERSION = 1")
        guard try row.step() else { throw MigrationError.store(.unreadableMetadata(path: path, reason: "Z_METADATA has no row")) }
        let uuid = row.string(0)
        var dictionary = (try? PropertyListSerialization.propertyList(from: row.data(1), format: nil)) as? [String: Any] ?? [:]
        row.reset()
        let fresh = StoreMetadata(model: diff.destination)
        dictionary["NSStoreModelVersionHashes"] = fresh.entityHashes
        dictionary["NSStoreModelVersionHashesVersion"] = 3
        dictionary["NSStoreModelVersionIdentifiers"] = fresh.versionIdentifiers
        dictionary["NSPersistenceFrameworkVersion"] = StoreMetadata.writtenFrameworkVersion
        dictionary["NSStoreModelVersionHashesDigest"] = fresh.digest
        dictionary["NSStoreModelVersionChecksumKey"] = fresh.checksum
        let plist = try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0)
        let update = try connection.prepareUncached("UPDATE target.Z_METADATA SET Z_UUID = ?, Z_PLIST = ? WHERE Z_VERSION = 1")
        try update.bind(uuid, at: 1)
        try update.bind(plist, at: 2)
        try update.run()
    }

    // MARK: Files

    private func scalarText(_ connection: SQLiteConnection, _ sql: String) throws -> String {
        let statement = try connection.prepareUncached(sql)
        guard try statement.step() else { return "" }
        return statement.string(0)
    }

    private func sync(_ url: URL) throws {
        let descriptor = open(url.path, O_RDWR)
        guard descriptor >= 0 else {
            throw MigrationError.fileSystem(store: path, reason: "cannot open the migrated store to sync it")
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw MigrationError.fileSystem(store: path, reason: "cannot sync the migrated store: \(String(cString: strerror(errno)))")
        }
    }

    private func syncDirectory(of url: URL) {
        let descriptor = open(url.deletingLastPathComponent().path, O_RDONLY)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    private func removeTemporary(_ url: URL) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
    }
}
