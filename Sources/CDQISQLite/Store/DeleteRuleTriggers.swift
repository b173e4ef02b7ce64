import CDQIModel
import CDQIObjects

/// The temporary `AFTER DELETE` triggers that apply delete rules during a batch delete on SQLite, built
/// the way Core Data builds its `ZQ_<TABLE>_TRIGGER`s (`../shared/reference/coredata-changes.md` §3.2)
/// from a ``DeleteRulePlan``: one trigger per table reached (the deleted entity's table, and every table
/// a cascade reaches), whose body has one statement per step, guarded by the declaring entity's `Z_ENT`
/// range.
///
/// A version bump (Nullify of a to-one whose inverse is a to-many) is not an `UPDATE` per deleted row but
/// a call `cdqi_batch_bump(slot, OLD.key)` counting it (``DeleteRuleBumps``), applied once per destination
/// after the `DELETE`: each trigger run then writes no row for it.
///
/// A refusal aborts the statement. Every row a cascade deletes is noted in `temp.cdqi_batch_deleted`,
/// every row a nullify clears in `temp.cdqi_batch_updated` (each once), so that contexts learn of them
/// (named without their schema inside the triggers, as SQLite requires there; no store table starts
/// with `cdqi`).
///
/// The SQL holds only table and column names from the schema and entity numbers: no value from a
/// request. A refusal is raised as `cdqi_batch_rule_<n>`, `n` indexing ``refusals``.
package struct DeleteRuleTriggers {
    package static let refusalPrefix = "cdqi_batch_rule_"
    package static let deletedTable = "temp.cdqi_batch_deleted"
    package static let updatedTable = "temp.cdqi_batch_updated"

    /// What the delete rules do, whatever the engine (the PostgreSQL store runs it without triggers).
    let plan: DeleteRulePlan
    /// Whether rows deleted by cascades and changed by nullifies are noted (for merging into contexts).
    let notesRows: Bool
    /// `(name, CREATE TEMP TRIGGER …)` per table, in the order the tables were reached.
    private(set) var triggers: [(name: String, sql: String)] = []
    /// The tables whose versions the triggers' `cdqi_batch_bump(slot, key)` calls count, by slot.
    private(set) var bumpTables: [String] = []
    /// Whether no delete rule touches other rows (the delete can run alone).
    var refusals: [DeleteRulePlan.Refusal] { plan.refusals }

    /// The triggers of a batch delete's rules; none when no relationship of the deleted table's entities
    /// needs one. Without `rules.notesRows` the rows cascades and nullifies write are not noted (no
    /// context needs them).
    init(_ rules: BatchDeleteRules) {
        plan = rules.plan
        notesRows = rules.notesRows
        guard !plan.isEmpty else { return }
        for step in plan.tables.flatMap(\.steps) {
            if case .bumpReferenced(let table, _) = step.action, !bumpTables.contains(table) { bumpTables.append(table) }
        }
        for table in plan.tables {
            // Rows a cascade deletes are noted; the rows the statement itself deletes are returned by it
            // (its table is noted too when a cascade reaches it, a tree in one table).
            let notes = notesRows && table.isCascadeTarget
            let fragments = table.steps.flatMap(fragments)
            guard notes || !fragments.isEmpty else { continue }
            let name = "cdqi_batch_\(table.name)"
            let body = (notes ? ["INSERT OR IGNORE INTO \(Self.deletedTable.dropFirst(5)) VALUES (OLD.Z_ENT, OLD.Z_PK)"] : []) + fragments
            triggers.append(
                (
                    name,
                    "CREATE TEMP TRIGGER \(name) AFTER DELETE ON \(table.name) FOR EACH ROW BEGIN "
                        + body.map { $0 + "; " }.joined() + "END"
                ))
        }
    }

    /// The trigger body statements of a step.
    private func fragments(_ step: DeleteRulePlan.Step) -> [String] {
        // ` AND OLD.Z_ENT BETWEEN …` when the table holds entities outside the step's.
        let guardSQL = step.entities.map { " AND OLD.Z_ENT BETWEEN \($0.lowerBound) AND \($0.upperBound)" } ?? ""
        switch step.action {
        case .deleteReferenced(let table, let key): return ["DELETE FROM \(table) WHERE Z_PK = OLD.\(key)\(guardSQL)"]
        case .deleteReferencing(let table, let inverseKey): return ["DELETE FROM \(table) WHERE \(inverseKey) = OLD.Z_PK\(guardSQL)"]
        case .deleteJoined(let table, let join, let mine, let other):
            return ["DELETE FROM \(table) WHERE Z_PK IN (SELECT \(other) FROM \(join) WHERE \(mine) = OLD.Z_PK)\(guardSQL)"]
        case .removeJoinRows(let join, let mine): return ["DELETE FROM \(join) WHERE \(mine) = OLD.Z_PK\(guardSQL)"]
        case .bumpReferenced(let table, let key):
            // Counted, and applied once per destination after the DELETE (DeleteRuleBumps).
            let slot = bumpTables.firstIndex(of: table) ?? 0
            let call = "SELECT \(DeleteRuleBumps.functionName)(\(slot), OLD.\(key))"
            return [step.entities.map { "\(call) WHERE OLD.Z_ENT BETWEEN \($0.lowerBound) AND \($0.upperBound)" } ?? call]
        case .clearReferencing(let table, let inverseKey, let columns):
            return nullifying(table, columns, where: "\(inverseKey) = OLD.Z_PK\(guardSQL)")
        case .refuseIfReferenced(let refusal, let table, let key):
            return [refuse(refusal, when: "OLD.\(key) IS NOT NULL\(guardSQL) AND EXISTS (SELECT 1 FROM \(table) WHERE Z_PK = OLD.\(key))")]
        case .refuseIfReferencing(let refusal, let table, let inverseKey):
            return [refuse(refusal, when: "EXISTS (SELECT 1 FROM \(table) WHERE \(inverseKey) = OLD.Z_PK\(guardSQL))")]
        case .refuseIfJoined(let refusal, _, let join, let mine, _):
            return [refuse(refusal, when: "EXISTS (SELECT 1 FROM \(join) WHERE \(mine) = OLD.Z_PK)\(guardSQL)")]
        case .refuseIfOrphaning(let refusal, _, let join, let mine, let other):
            let orphan =
                "EXISTS (SELECT 1 FROM \(join) j1 WHERE j1.\(mine) = OLD.Z_PK AND NOT EXISTS "
                + "(SELECT 1 FROM \(join) j2 WHERE j2.\(other) = j1.\(other) AND j2.\(mine) <> OLD.Z_PK))"
            return [refuse(refusal, when: "\(orphan)\(guardSQL)")]
        }
    }

    private func refuse(_ refusal: Int, when condition: String) -> String {
        "SELECT RAISE(ABORT, '\(Self.refusalPrefix)\(refusal)') WHERE \(condition)"
    }

    /// `UPDATE` of the destination rows matching `condition`: noted as updated, `Z_OPT + 1`, and the
    /// given columns set to NULL.
    private func nullifying(_ table: String, _ columns: [String], where condition: String) -> [String] {
        let sets = (columns.map { "\($0) = NULL" } + ["Z_OPT = Z_OPT + 1"]).joined(separator: ", ")
        let note = "INSERT OR IGNORE INTO \(Self.updatedTable.dropFirst(5)) SELECT Z_ENT, Z_PK FROM \(table) WHERE \(condition)"
        return (notesRows ? [note] : []) + ["UPDATE \(table) SET \(sets) WHERE \(condition)"]
    }
}
