import CDQIModel

/// The temporary `AFTER DELETE` triggers that apply delete rules during a batch delete, built the way
/// Core Data builds its `ZQ_<TABLE>_TRIGGER`s (`../shared/reference/coredata-changes.md` §3.2): one
/// trigger per table reached (the deleted entity's table, and every table a cascade reaches), whose body
/// has one fragment per relationship, guarded by the declaring entity's `Z_ENT` range.
///
/// Per deleted row: Cascade deletes the destinations (their own triggers go on); Nullify clears the
/// inverse foreign key of the destinations (and its entity and order columns) with `Z_OPT + 1`, bumps
/// `Z_OPT` of a to-one's destination whose to-many lost a member, and removes join-table rows; a nullify
/// that would leave a destination without its mandatory (non-optional) inverse, and a Deny rule whose
/// relationship still has destinations, abort the statement. Join-table rows of a deleted row are removed
/// whatever the rule (No Action included), and so are the rows of inverse-less to-many relationships
/// pointing at it. Every row a cascade deletes is noted in `temp.cdqi_batch_deleted`, every row a nullify
/// changes in `temp.cdqi_batch_updated` (each once), so that contexts learn of them (named without their schema inside
/// the triggers, as SQLite requires there; no store table starts with `cdqi`).
///
/// The SQL holds only table and column names from the schema and entity numbers: no value from a
/// request. A refusal is raised as `cdqi_batch_rule_<n>`, `n` indexing ``refusals``.
package struct DeleteRuleTriggers {
    /// What a raised refusal means.
    package struct Refusal {
        var isDeny: Bool
        var entity: String
        var relationship: String

        package var error: BatchError {
            isDeny
                ? .deleteDenied(entity: entity, relationship: relationship)
                : .mandatoryInverse(entity: entity, relationship: relationship)
        }
    }

    package static let refusalPrefix = "cdqi_batch_rule_"
    package static let deletedTable = "temp.cdqi_batch_deleted"
    package static let updatedTable = "temp.cdqi_batch_updated"

    /// `(name, CREATE TEMP TRIGGER …)` per table, in the order the tables were reached.
    package private(set) var triggers: [(name: String, sql: String)] = []
    /// Whether no delete rule needs a trigger (a store without triggers can run the delete alone).
    package var isEmpty: Bool { triggers.isEmpty }
    package private(set) var refusals: [Refusal] = []

    private let model: ManagedObjectModel
    private let schema: StoreSchema
    /// Whether rows deleted by cascades and changed by nullifies are noted (for merging into contexts).
    private let notesRows: Bool

    /// Plans the triggers for a batch delete of rows of `rootTable`; none when no relationship of the
    /// table's entities needs one. Without `notesRows` the rows cascades and nullifies write are not noted
    /// (no context needs them).
    init(model: ManagedObjectModel, schema: StoreSchema, rootTable: String, notesRows: Bool = true) throws(BatchError) {
        self.model = model
        self.schema = schema
        self.notesRows = notesRows
        var queue = [rootTable]
        var reached: Set<String> = [rootTable]
        var cascadeTargets: Set<String> = []
        var bodies: [(table: String, fragments: [String])] = []
        var index = 0
        while index < queue.count {
            let table = queue[index]
            index += 1
            var cascadesTo: [String] = []
            bodies.append((table, try fragments(for: table, cascadesTo: &cascadesTo)))
            cascadeTargets.formUnion(cascadesTo)
            for next in cascadesTo where reached.insert(next).inserted { queue.append(next) }
        }
        for (table, fragments) in bodies {
            // Rows a cascade deletes are noted; the rows the statement itself deletes are returned by it
            // (its table is noted too when a cascade reaches it, a tree in one table).
            let notes = notesRows && cascadeTargets.contains(table)
            guard notes || !fragments.isEmpty else { continue }
            let name = "cdqi_batch_\(table)"
            let body = (notes ? ["INSERT OR IGNORE INTO \(Self.deletedTable.dropFirst(5)) VALUES (OLD.Z_ENT, OLD.Z_PK)"] : []) + fragments
            triggers.append(
                (
                    name,
                    "CREATE TEMP TRIGGER \(name) AFTER DELETE ON \(table) FOR EACH ROW BEGIN "
                        + body.map { $0 + "; " }.joined() + "END"
                ))
        }
    }

    /// The trigger body statements for rows of `table`.
    private mutating func fragments(for table: String, cascadesTo: inout [String]) throws(BatchError) -> [String] {
        let tableEntityCount = schema.entities.filter { $0.tableName == table }.count
        var fragments: [String] = []
        for mapping in schema.entities where mapping.tableName == table {
            guard let entity = model.entity(named: mapping.name) else { throw .unknownEntity(mapping.name) }
            let guardSQL = Self.entityGuard(mapping, tableEntityCount: tableEntityCount)
            for relationship in entity.relationships where !relationship.isTransient {
                fragments += try ruleFragments(relationship, of: entity, mapping: mapping, guard: guardSQL, cascadesTo: &cascadesTo)
            }
        }
        // Inverse-less to-many relationships of other entities, pointing at rows of this table.
        for join in schema.joinTables where join.inverseRelationship == nil {
            guard let source = model.entity(named: join.sourceEntity),
                let relationship = source.relationship(named: join.relationship),
                let destination = schema.entity(named: relationship.destinationEntityName),
                destination.tableName == table
            else { continue }
            let guardSQL = Self.entityGuard(destination, tableEntityCount: tableEntityCount)
            fragments.append("DELETE FROM \(join.name) WHERE \(join.destinationColumn) = OLD.Z_PK\(guardSQL)")
        }
        return fragments
    }

    /// ` AND OLD.Z_ENT BETWEEN …` when the table holds entities outside the mapping's range.
    private static func entityGuard(_ mapping: EntityMapping, tableEntityCount: Int) -> String {
        let numbers = mapping.numbersIncludingSubentities
        guard numbers.count < tableEntityCount, let low = numbers.min(), let high = numbers.max() else { return "" }
        return " AND OLD.Z_ENT BETWEEN \(low) AND \(high)"
    }

    private mutating func refuse(_ isDeny: Bool, _ entity: EntityDescription, _ relationship: RelationshipDescription, when condition: String) -> String {
        refusals.append(Refusal(isDeny: isDeny, entity: entity.name, relationship: relationship.name))
        return "SELECT RAISE(ABORT, '\(Self.refusalPrefix)\(refusals.count - 1)') WHERE \(condition)"
    }

    /// `UPDATE` of the destination rows matching `condition`: noted as updated, `Z_OPT + 1`, and the
    /// given columns set to NULL.
    private func nullifying(_ table: String, _ columns: [String], where condition: String) -> [String] {
        let sets = (columns.map { "\($0) = NULL" } + ["Z_OPT = Z_OPT + 1"]).joined(separator: ", ")
        let note = "INSERT OR IGNORE INTO \(Self.updatedTable.dropFirst(5)) SELECT Z_ENT, Z_PK FROM \(table) WHERE \(condition)"
        return (notesRows ? [note] : []) + ["UPDATE \(table) SET \(sets) WHERE \(condition)"]
    }

    private func inverse(of relationship: RelationshipDescription) -> RelationshipDescription? {
        guard let name = relationship.inverseName, let destination = model.entity(named: relationship.destinationEntityName) else { return nil }
        for entity in [destination] + model.ancestors(of: destination) {
            if let found = entity.relationship(named: name) { return found }
        }
        return nil
    }

    private mutating func ruleFragments(
        _ relationship: RelationshipDescription, of entity: EntityDescription, mapping: EntityMapping, guard guardSQL: String,
        cascadesTo: inout [String]
    ) throws(BatchError) -> [String] {
        guard let destination = schema.entity(named: relationship.destinationEntityName) else {
            throw .unknownEntity(relationship.destinationEntityName)
        }
        let columns = mapping.columns[relationship.name] ?? PropertyColumns()
        let inverse = inverse(of: relationship)
        let inverseColumns = inverse.flatMap { destination.columns[$0.name] }
        let rule = relationship.deleteRule
        let table = destination.tableName
        if rule == .cascade { cascadesTo.append(table) }

        if !relationship.isToMany {
            guard let key = columns.value else { return [] }
            let exists = "EXISTS (SELECT 1 FROM \(table) WHERE Z_PK = OLD.\(key))"
            switch rule {
            case .noAction: return []
            case .deny: return [refuse(true, entity, relationship, when: "OLD.\(key) IS NOT NULL\(guardSQL) AND \(exists)")]
            case .cascade: return ["DELETE FROM \(table) WHERE Z_PK = OLD.\(key)\(guardSQL)"]
            case .nullify:
                guard let inverse else { return [] }
                if !inverse.isOptional {
                    return [refuse(false, entity, relationship, when: "OLD.\(key) IS NOT NULL\(guardSQL) AND \(exists)")]
                }
                if inverse.isToMany {
                    // The destination's to-many lost a member: its version grows.
                    return nullifying(table, [], where: "Z_PK = OLD.\(key)\(guardSQL)")
                }
                guard let inverseKey = inverseColumns?.value else { return [] }
                let cleared = [inverseKey] + [inverseColumns?.entity, inverseColumns?.order].compactMap { $0 }
                return nullifying(table, cleared, where: "\(inverseKey) = OLD.Z_PK\(guardSQL)")
            }
        }

        if let joinName = columns.joinTable {
            guard let join = schema.joinTables.first(where: { $0.name == joinName }) else { return [] }
            let isSource = join.relationship == relationship.name && join.sourceEntity == entity.name
            let mine = isSource ? join.sourceColumn : join.destinationColumn
            let other = isSource ? join.destinationColumn : join.sourceColumn
            let removeRows = "DELETE FROM \(join.name) WHERE \(mine) = OLD.Z_PK\(guardSQL)"
            switch rule {
            case .noAction: return [removeRows]
            case .deny:
                return [refuse(true, entity, relationship, when: "EXISTS (SELECT 1 FROM \(join.name) WHERE \(mine) = OLD.Z_PK)\(guardSQL)"), removeRows]
            case .cascade:
                return ["DELETE FROM \(table) WHERE Z_PK IN (SELECT \(other) FROM \(join.name) WHERE \(mine) = OLD.Z_PK)\(guardSQL)", removeRows]
            case .nullify:
                guard let inverse, !inverse.isOptional else { return [removeRows] }
                // A destination left with no other link would break its mandatory inverse.
                let orphan =
                    "EXISTS (SELECT 1 FROM \(join.name) j1 WHERE j1.\(mine) = OLD.Z_PK AND NOT EXISTS "
                    + "(SELECT 1 FROM \(join.name) j2 WHERE j2.\(other) = j1.\(other) AND j2.\(mine) <> OLD.Z_PK))"
                return [refuse(false, entity, relationship, when: "\(orphan)\(guardSQL)"), removeRows]
            }
        }

        // A to-many whose inverse to-one holds the key on the destination row.
        guard let inverseKey = inverseColumns?.value else { return [] }
        let matches = "\(inverseKey) = OLD.Z_PK\(guardSQL)"
        switch rule {
        case .noAction: return []
        case .deny: return [refuse(true, entity, relationship, when: "EXISTS (SELECT 1 FROM \(table) WHERE \(matches))")]
        case .cascade: return ["DELETE FROM \(table) WHERE \(matches)"]
        case .nullify:
            if let inverse, !inverse.isOptional {
                return [refuse(false, entity, relationship, when: "EXISTS (SELECT 1 FROM \(table) WHERE \(matches))")]
            }
            let cleared = [inverseKey] + [inverseColumns?.entity, inverseColumns?.order].compactMap { $0 }
            return nullifying(table, cleared, where: matches)
        }
    }
}
