import CDQIObjects
import CDQIPredicate

/// A batch delete whose delete rules touch other rows, run on PostgreSQL set by set rather than by
/// triggers: PostgreSQL has no temporary triggers, and creating triggers on the store's tables would
/// lock each table against every other process's writes until the batch commits. It runs the same
/// ``DeleteRulePlan`` as the SQLite store's triggers, in the caller's transaction:
///
/// 1. the rows the request matches are locked (`FOR UPDATE`) and noted in a temporary table
///    (`pg_temp.cdqi_batch_deleted`: table, `Z_ENT`, `Z_PK`, the round that reached it, dropped at
///    commit);
/// 2. cascades add the rows they reach, round by round (one `INSERT … SELECT` per cascade step and
///    round, the rows of round *r* reaching those of round *r* + 1) until a round adds none: a tree in
///    one table or a cycle ends there too, each row noted once;
/// 3. every refusal is checked against the whole set (a Deny relationship with destinations, a
///    mandatory inverse a nullify would empty); a destination that is itself deleted does not count;
/// 4. nullifies update the destinations left (`Z_OPT + 1` per deleted row naming them, as one trigger
///    per deleted row gives), the deleted rows' join rows go, then each table's noted rows.
///
/// Every statement holds only table and column names, entity numbers and table positions; the
/// request's values are bound, and so is the round. What it returns merges into contexts exactly as
/// the SQLite store's: the rows matched, the rows cascades deleted, the rows nullifies changed.
struct PostgresBatchDelete {
    let plan: DeleteRulePlan
    /// Whether the rows written are read back (for contexts, or an `.objectIDs` result).
    let notesRows: Bool
    /// The position of each table the plan reaches: rows of `plan.tables[n]` are noted with `tab = n`.
    private let positions: [String: Int]

    private static let deleted = "pg_temp.cdqi_batch_deleted"

    init(rules: BatchDeleteRules) {
        plan = rules.plan
        notesRows = rules.notesRows
        var positions: [String: Int] = [:]
        for (position, table) in plan.tables.enumerated() where positions[table.name] == nil { positions[table.name] = position }
        self.positions = positions
    }

    private func id(_ name: String) -> String { SQLDialect.postgres.identifier(name) }

    /// Runs the delete: `condition` chooses the rows of `plan.tables[0]` (alias `t0`), with `parameters`.
    func run(condition: SQLFragment, parameters: [StoredValue], on connection: PostgresConnection) throws -> BatchWriter.Written {
        guard let root = plan.tables.first else { return BatchWriter.Written() }
        try connection.execute(
            "CREATE TEMP TABLE cdqi_batch_deleted (tab integer NOT NULL, ent integer NOT NULL, pk bigint NOT NULL, "
                + "round bigint NOT NULL, PRIMARY KEY (tab, pk)) ON COMMIT DROP")
        let seed = SQLFragment.template(
            "INSERT INTO \(Self.deleted) (tab, ent, pk, round) SELECT 0, t0.\(id("Z_ENT")), t0.\(id("Z_PK")), 0 "
                + "FROM \(id(root.name)) AS t0 WHERE % FOR UPDATE OF t0\(notesRows ? " RETURNING ent, pk" : "")",
            condition)
        let seeded = try connection.queryUncached(SQLDialect.postgres.statementText(seed), parameters)
        var written = BatchWriter.Written(matched: try Self.rows(seeded), matchedCount: seeded.affectedRowCount)
        try closeCascades(on: connection)
        try checkRefusals(on: connection)
        var updated: [BatchWriter.Row] = []
        for (position, table) in plan.tables.enumerated() {
            for step in table.steps {
                guard let sql = writeSQL(step, table: table.name, position: position) else { continue }
                updated += try Self.rows(try connection.queryUncached(sql))
            }
        }
        for (position, table) in plan.tables.enumerated() where positions[table.name] == position {
            try connection.queryUncached(
                "DELETE FROM \(id(table.name)) x USING \(Self.deleted) d WHERE d.tab = \(position) AND x.\(id("Z_PK")) = d.pk")
        }
        if notesRows {
            written.alsoDeleted = try Self.rows(try connection.queryUncached("SELECT ent, pk FROM \(Self.deleted) WHERE round > 0"))
            var seen: Set<BatchWriter.Row> = []
            written.alsoUpdated = updated.filter { seen.insert($0).inserted }
        }
        return written
    }

    /// Step 2: the rows cascades reach, round by round.
    private func closeCascades(on connection: PostgresConnection) throws {
        var round: Int64 = 0
        while true {
            var added = 0
            for (position, table) in plan.tables.enumerated() {
                for step in table.steps {
                    guard let sql = cascadeSQL(step, position: position, table: table.name) else { continue }
                    added += try connection.queryUncached(sql, [.integer(round)]).affectedRowCount
                }
            }
            guard added > 0 else { return }
            round += 1
        }
    }

    /// Step 3: the first refusal that applies, thrown.
    private func checkRefusals(on connection: PostgresConnection) throws {
        for (position, table) in plan.tables.enumerated() {
            for step in table.steps {
                guard let (refusal, sql) = refusalSQL(step, position: position, table: table.name) else { continue }
                if try connection.queryUncached(sql).rowCount > 0 { throw plan.refusals[refusal].error }
            }
        }
    }

    /// `Z_ENT, Z_PK` pairs of a result returning them (none for a result without columns).
    private static func rows(_ result: PostgresResult) throws -> [BatchWriter.Row] {
        guard result.columnCount >= 2 else { return [] }
        return try (0..<result.rowCount).map { row in
            BatchWriter.Row(entity: Int(try result.int64(row: row, column: 0) ?? 0), key: try result.int64(row: row, column: 1) ?? 0)
        }
    }

    /// The noted rows of the table at `position` a step applies to (alias `d`), of round `$1` when `inRound`.
    private func deletedRows(_ step: DeleteRulePlan.Step, position: Int, inRound: Bool = false) -> String {
        var condition = "d.tab = \(position)"
        if inRound { condition += " AND d.round = $1" }
        if let entities = step.entities { condition += " AND d.ent BETWEEN \(entities.lowerBound) AND \(entities.upperBound)" }
        return condition
    }

    /// ` AND` the row of `table` whose `Z_PK` is `key` is not noted as deleted (nothing when the plan
    /// reaches no row of `table`).
    private func notDeleted(_ table: String, key: String) -> String {
        guard let position = positions[table] else { return "" }
        return " AND NOT EXISTS (SELECT 1 FROM \(Self.deleted) e WHERE e.tab = \(position) AND e.pk = \(key))"
    }

    /// A cascade step's `INSERT` of the rows it reaches from round `$1`'s rows, as round `$1 + 1`.
    private func cascadeSQL(_ step: DeleteRulePlan.Step, position: Int, table: String) -> String? {
        let from: String
        let destination: String
        switch step.action {
        case .deleteReferenced(let target, let key):
            destination = target
            from = "JOIN \(id(table)) x ON x.\(id("Z_PK")) = d.pk JOIN \(id(target)) y ON y.\(id("Z_PK")) = x.\(id(key))"
        case .deleteReferencing(let target, let inverseKey):
            destination = target
            from = "JOIN \(id(target)) y ON y.\(id(inverseKey)) = d.pk"
        case .deleteJoined(let target, let join, let mine, let other):
            destination = target
            from = "JOIN \(id(join)) j ON j.\(id(mine)) = d.pk JOIN \(id(target)) y ON y.\(id("Z_PK")) = j.\(id(other))"
        default: return nil
        }
        guard let target = positions[destination] else { return nil }
        return "INSERT INTO \(Self.deleted) (tab, ent, pk, round) SELECT \(target), y.\(id("Z_ENT")), y.\(id("Z_PK")), $1 + 1 "
            + "FROM \(Self.deleted) d \(from) WHERE \(deletedRows(step, position: position, inRound: true)) ON CONFLICT DO NOTHING"
    }

    /// A refusal step's query, returning a row when the refusal applies.
    private func refusalSQL(_ step: DeleteRulePlan.Step, position: Int, table: String) -> (Int, String)? {
        let rows = deletedRows(step, position: position)
        let pk = id("Z_PK")
        switch step.action {
        case .refuseIfReferenced(let refusal, let target, let key):
            return (
                refusal,
                "SELECT 1 FROM \(Self.deleted) d JOIN \(id(table)) x ON x.\(pk) = d.pk JOIN \(id(target)) y ON y.\(pk) = x.\(id(key)) "
                    + "WHERE \(rows)\(notDeleted(target, key: "y.\(pk)")) LIMIT 1"
            )
        case .refuseIfReferencing(let refusal, let target, let inverseKey):
            return (
                refusal,
                "SELECT 1 FROM \(Self.deleted) d JOIN \(id(target)) y ON y.\(id(inverseKey)) = d.pk "
                    + "WHERE \(rows)\(notDeleted(target, key: "y.\(pk)")) LIMIT 1"
            )
        case .refuseIfJoined(let refusal, let target, let join, let mine, let other):
            return (
                refusal,
                "SELECT 1 FROM \(Self.deleted) d JOIN \(id(join)) j ON j.\(id(mine)) = d.pk "
                    + "WHERE \(rows)\(notDeleted(target, key: "j.\(id(other))")) LIMIT 1"
            )
        case .refuseIfOrphaning(let refusal, let target, let join, let mine, let other):
            // A destination joined to a deleted row, not deleted itself, with no link left to a row kept.
            return (
                refusal,
                "SELECT 1 FROM \(Self.deleted) d JOIN \(id(join)) j1 ON j1.\(id(mine)) = d.pk "
                    + "WHERE \(rows)\(notDeleted(target, key: "j1.\(id(other))")) AND NOT EXISTS (SELECT 1 FROM \(id(join)) j2 "
                    + "WHERE j2.\(id(other)) = j1.\(id(other))\(notDeleted(table, key: "j2.\(id(mine))"))) LIMIT 1"
            )
        default: return nil
        }
    }

    /// A nullify's `UPDATE` (returning the rows it changed when they are noted) or a join-row removal.
    private func writeSQL(_ step: DeleteRulePlan.Step, table: String, position: Int) -> String? {
        let rows = deletedRows(step, position: position)
        let (pk, version) = (id("Z_PK"), id("Z_OPT"))
        let returning = notesRows ? " RETURNING y.\(id("Z_ENT")), y.\(pk)" : ""
        switch step.action {
        case .bumpReferenced(let target, let key):
            // One more version per deleted row naming the destination, as one trigger run per row gives.
            return "UPDATE \(id(target)) y SET \(version) = y.\(version) + c.n FROM (SELECT x.\(id(key)) AS k, count(*) AS n "
                + "FROM \(Self.deleted) d JOIN \(id(table)) x ON x.\(pk) = d.pk WHERE \(rows) GROUP BY x.\(id(key))) c "
                + "WHERE y.\(pk) = c.k\(notDeleted(target, key: "y.\(pk)"))\(returning)"
        case .clearReferencing(let target, let inverseKey, let columns):
            let sets = (columns.map { "\(id($0)) = NULL" } + ["\(version) = y.\(version) + 1"]).joined(separator: ", ")
            return "UPDATE \(id(target)) y SET \(sets) FROM \(Self.deleted) d "
                + "WHERE \(rows) AND y.\(id(inverseKey)) = d.pk\(notDeleted(target, key: "y.\(pk)"))\(returning)"
        case .removeJoinRows(let join, let mine):
            return "DELETE FROM \(id(join)) j USING \(Self.deleted) d WHERE \(rows) AND j.\(id(mine)) = d.pk"
        default: return nil
        }
    }
}
