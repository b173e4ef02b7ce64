import CDQIModel

/// What a batch delete must do to other rows by the model's delete rules, worked out once from the
/// model and the layout, whatever the engine: per table the delete reaches (the deleted entity's table,
/// then every table a cascade reaches, in that order), the steps each deleted row of the table takes,
/// one or two per relationship, as Core Data's `ZQ_<TABLE>_TRIGGER`s take them
/// (`../shared/reference/coredata-changes.md` §3.2).
///
/// Cascade deletes the destinations (and theirs in turn); Nullify clears the inverse foreign key of the
/// destinations (and its entity and order columns) with `Z_OPT + 1`, bumps `Z_OPT` of a to-one's
/// destination whose to-many lost a member, and removes join-table rows; a nullify that would leave a
/// destination without its mandatory (non-optional) inverse, and a Deny rule whose relationship still has
/// destinations, refuse the delete. Join-table rows of a deleted row are removed whatever the rule (No
/// Action included), and so are the rows of inverse-less to-many relationships pointing at it.
///
/// The SQLite store runs the plan as temporary triggers (`DeleteRuleTriggers` in `CDQISQLite`); the PostgreSQL store
/// runs it set by set over the rows it deletes. Steps name only tables and columns of the layout.
package struct DeleteRulePlan {
    /// One step of a deleted row (`OLD`: the row deleted, `key` a foreign-key column of it, `inverseKey`
    /// a foreign-key column of the destination table naming it).
    package enum Action {
        /// Cascade, to-one: delete the row of `table` whose `Z_PK` is `OLD.key`.
        case deleteReferenced(table: String, key: String)
        /// Cascade, to-many through the inverse: delete the rows of `table` whose `inverseKey` is `OLD.Z_PK`.
        case deleteReferencing(table: String, inverseKey: String)
        /// Cascade, many-to-many: delete the rows of `table` joined to `OLD` through `join` (`mine` names
        /// the deleted row, `other` the destination).
        case deleteJoined(table: String, join: String, mine: String, other: String)
        /// Remove the join rows of `join` whose `mine` is `OLD.Z_PK`.
        case removeJoinRows(join: String, mine: String)
        /// Nullify, to-one whose inverse is to-many: `Z_OPT + 1` on the row of `table` whose `Z_PK` is
        /// `OLD.key` (its to-many lost a member).
        case bumpReferenced(table: String, key: String)
        /// Nullify through the inverse to-one: set `columns` (the inverse's key, entity and order
        /// columns) to NULL and `Z_OPT + 1` on the rows of `table` whose `inverseKey` is `OLD.Z_PK`.
        case clearReferencing(table: String, inverseKey: String, columns: [String])
        /// Refuse (``refusals``[`refusal`]) when `OLD.key` names a row of `table`.
        case refuseIfReferenced(refusal: Int, table: String, key: String)
        /// Refuse when rows of `table` have `inverseKey` = `OLD.Z_PK`.
        case refuseIfReferencing(refusal: Int, table: String, inverseKey: String)
        /// Refuse when `join` has rows whose `mine` is `OLD.Z_PK` (`other` names rows of `table`).
        case refuseIfJoined(refusal: Int, table: String, join: String, mine: String, other: String)
        /// Refuse when a row of `table` joined to `OLD` through `join` has no other row of the deleted
        /// row's table joined to it (its mandatory inverse would be left empty).
        case refuseIfOrphaning(refusal: Int, table: String, join: String, mine: String, other: String)

        /// Whether the step deletes rows of another table (a cascade).
        package var cascadesTo: String? {
            switch self {
            case .deleteReferenced(let table, _), .deleteReferencing(let table, _), .deleteJoined(let table, _, _, _): table
            default: nil
            }
        }
    }

    /// A step, for the deleted rows whose `Z_ENT` lies in `entities` (all of the table's when `nil`).
    package struct Step {
        package var action: Action
        package var entities: ClosedRange<Int>?
    }

    /// The steps of the rows of one table.
    package struct Table {
        package var name: String
        package var steps: [Step]
        /// Whether a cascade deletes rows of this table (rows noted as deleted for contexts).
        package var isCascadeTarget: Bool
    }

    /// What a refusal means.
    package struct Refusal {
        var isDeny: Bool
        var entity: String
        var relationship: String

        /// The error a refused batch delete throws.
        package var error: BatchError {
            isDeny
                ? .deleteDenied(entity: entity, relationship: relationship)
                : .mandatoryInverse(entity: entity, relationship: relationship)
        }
    }

    /// The tables reached, the deleted entity's first, in the order they were reached.
    package private(set) var tables: [Table] = []
    /// The refusals steps name, by index.
    package private(set) var refusals: [Refusal] = []
    /// Whether no row other than those the request matches is touched.
    package var isEmpty: Bool { tables.allSatisfy { $0.steps.isEmpty } }

    private let model: ManagedObjectModel
    private let schema: StoreSchema

    /// Plans a batch delete of rows of `rootTable`.
    init(model: ManagedObjectModel, schema: StoreSchema, rootTable: String) throws(BatchError) {
        self.model = model
        self.schema = schema
        var queue = [rootTable]
        var reached: Set<String> = [rootTable]
        var cascadeTargets: Set<String> = []
        var index = 0
        while index < queue.count {
            let table = queue[index]
            index += 1
            let steps = try steps(for: table)
            tables.append(Table(name: table, steps: steps, isCascadeTarget: false))
            for next in steps.compactMap(\.action.cascadesTo) {
                cascadeTargets.insert(next)
                if reached.insert(next).inserted { queue.append(next) }
            }
        }
        for position in tables.indices { tables[position].isCascadeTarget = cascadeTargets.contains(tables[position].name) }
    }

    /// The steps for rows of `table`.
    private mutating func steps(for table: String) throws(BatchError) -> [Step] {
        let tableEntityCount = schema.entities.filter { $0.tableName == table }.count
        var steps: [Step] = []
        for mapping in schema.entities where mapping.tableName == table {
            guard let entity = model.entity(named: mapping.name) else { throw .unknownEntity(mapping.name) }
            let entities = Self.entityRange(mapping, tableEntityCount: tableEntityCount)
            for relationship in entity.relationships where !relationship.isTransient {
                steps += try actions(relationship, of: entity, mapping: mapping).map { Step(action: $0, entities: entities) }
            }
        }
        // Inverse-less to-many relationships of other entities, pointing at rows of this table.
        for join in schema.joinTables where join.inverseRelationship == nil {
            guard let source = model.entity(named: join.sourceEntity),
                let relationship = source.relationship(named: join.relationship),
                let destination = schema.entity(named: relationship.destinationEntityName),
                destination.tableName == table
            else { continue }
            steps.append(
                Step(
                    action: .removeJoinRows(join: join.name, mine: join.destinationColumn),
                    entities: Self.entityRange(destination, tableEntityCount: tableEntityCount)))
        }
        return steps
    }

    /// The mapping's entity numbers when the table holds entities outside them, else `nil`.
    private static func entityRange(_ mapping: EntityMapping, tableEntityCount: Int) -> ClosedRange<Int>? {
        let numbers = mapping.numbersIncludingSubentities
        guard numbers.count < tableEntityCount, let low = numbers.min(), let high = numbers.max() else { return nil }
        return low...high
    }

    private mutating func refusal(_ isDeny: Bool, _ entity: EntityDescription, _ relationship: RelationshipDescription) -> Int {
        refusals.append(Refusal(isDeny: isDeny, entity: entity.name, relationship: relationship.name))
        return refusals.count - 1
    }

    private func inverse(of relationship: RelationshipDescription) -> RelationshipDescription? {
        guard let name = relationship.inverseName, let destination = model.entity(named: relationship.destinationEntityName) else { return nil }
        for entity in [destination] + model.ancestors(of: destination) {
            if let found = entity.relationship(named: name) { return found }
        }
        return nil
    }

    private mutating func actions(
        _ relationship: RelationshipDescription, of entity: EntityDescription, mapping: EntityMapping
    ) throws(BatchError) -> [Action] {
        guard let destination = schema.entity(named: relationship.destinationEntityName) else {
            throw .unknownEntity(relationship.destinationEntityName)
        }
        let columns = mapping.columns[relationship.name] ?? PropertyColumns()
        let inverse = inverse(of: relationship)
        let inverseColumns = inverse.flatMap { destination.columns[$0.name] }
        let rule = relationship.deleteRule
        let table = destination.tableName

        if !relationship.isToMany {
            guard let key = columns.value else { return [] }
            switch rule {
            case .noAction: return []
            case .deny: return [.refuseIfReferenced(refusal: refusal(true, entity, relationship), table: table, key: key)]
            case .cascade: return [.deleteReferenced(table: table, key: key)]
            case .nullify:
                guard let inverse else { return [] }
                if !inverse.isOptional {
                    return [.refuseIfReferenced(refusal: refusal(false, entity, relationship), table: table, key: key)]
                }
                // The destination's to-many lost a member: its version grows.
                if inverse.isToMany { return [.bumpReferenced(table: table, key: key)] }
                guard let inverseKey = inverseColumns?.value else { return [] }
                let cleared = [inverseKey] + [inverseColumns?.entity, inverseColumns?.order].compactMap { $0 }
                return [.clearReferencing(table: table, inverseKey: inverseKey, columns: cleared)]
            }
        }

        if let joinName = columns.joinTable {
            guard let join = schema.joinTables.first(where: { $0.name == joinName }) else { return [] }
            let isSource = join.relationship == relationship.name && join.sourceEntity == entity.name
            let mine = isSource ? join.sourceColumn : join.destinationColumn
            let other = isSource ? join.destinationColumn : join.sourceColumn
            let removeRows = Action.removeJoinRows(join: join.name, mine: mine)
            switch rule {
            case .noAction: return [removeRows]
            case .deny:
                let refusal = refusal(true, entity, relationship)
                return [.refuseIfJoined(refusal: refusal, table: table, join: join.name, mine: mine, other: other), removeRows]
            case .cascade: return [.deleteJoined(table: table, join: join.name, mine: mine, other: other), removeRows]
            case .nullify:
                guard let inverse, !inverse.isOptional else { return [removeRows] }
                // A destination left with no other link would break its mandatory inverse.
                let refusal = refusal(false, entity, relationship)
                return [.refuseIfOrphaning(refusal: refusal, table: table, join: join.name, mine: mine, other: other), removeRows]
            }
        }

        // A to-many whose inverse to-one holds the key on the destination row.
        guard let inverseKey = inverseColumns?.value else { return [] }
        switch rule {
        case .noAction: return []
        case .deny: return [.refuseIfReferencing(refusal: refusal(true, entity, relationship), table: table, inverseKey: inverseKey)]
        case .cascade: return [.deleteReferencing(table: table, inverseKey: inverseKey)]
        case .nullify:
            if let inverse, !inverse.isOptional {
                return [.refuseIfReferencing(refusal: refusal(false, entity, relationship), table: table, inverseKey: inverseKey)]
            }
            let cleared = [inverseKey] + [inverseColumns?.entity, inverseColumns?.order].compactMap { $0 }
            return [.clearReferencing(table: table, inverseKey: inverseKey, columns: cleared)]
        }
    }
}
