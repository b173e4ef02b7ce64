import CDQIObjects
import CDQIPredicate

/// Runs a batch statement inside the caller's write transaction and reads back the rows it touched.
/// Anything it throws rolls the transaction back, the temporary triggers and tables with it.
struct SQLiteBatchWriter {
    typealias Row = BatchWriter.Row
    typealias Written = BatchWriter.Written

    let connection: SQLiteConnection

    /// Runs a batch delete with its delete-rule triggers.
    func delete(_ statement: SQLFragment, request: FetchRequest, triggers: DeleteRuleTriggers) throws -> Written {
        guard !triggers.triggers.isEmpty else { return try written(by: statement, request: request) }
        // The tables noting the rows the rules write, when they are read back (the triggers write them then only).
        let noteTables = triggers.notesRows ? [DeleteRuleTriggers.deletedTable, DeleteRuleTriggers.updatedTable] : []
        for table in noteTables {
            try connection.execute("CREATE TEMP TABLE \(table.dropFirst(5)) (ent INTEGER, pk INTEGER, PRIMARY KEY (ent, pk)) WITHOUT ROWID")
        }
        // A cascade within one table (a tree) fires the table's trigger from inside itself.
        try connection.execute("PRAGMA recursive_triggers = ON")
        defer { try? connection.execute("PRAGMA recursive_triggers = OFF") }
        // The version bumps the triggers count, before the triggers that call the function exist.
        let bumps = triggers.bumpTables.isEmpty ? nil : DeleteRuleBumps(tables: triggers.bumpTables)
        try bumps?.register(on: connection)
        defer { if bumps != nil { DeleteRuleBumps.unregister(from: connection) } }
        for trigger in triggers.triggers { try connection.execute(trigger.sql) }
        var written: Written
        do {
            written = try self.written(by: statement, request: request)
        } catch let error as SQLiteError {
            if let refusal = Self.refusal(in: error, triggers) { throw refusal.error }
            throw error
        }
        if triggers.notesRows {
            written.alsoDeleted = try rows("SELECT ent, pk FROM \(DeleteRuleTriggers.deletedTable)")
            written.alsoUpdated = try rows("SELECT ent, pk FROM \(DeleteRuleTriggers.updatedTable)")
        }
        if let bumps {
            let bumped = try bumps.apply(on: connection, noting: triggers.notesRows)
            var noted = Set(written.alsoUpdated)
            for row in bumped where noted.insert(row).inserted { written.alsoUpdated.append(row) }
        }
        for trigger in triggers.triggers { try connection.execute("DROP TRIGGER temp.\(trigger.name)") }
        for table in noteTables { try connection.execute("DROP TABLE \(table)") }
        return written
    }

    /// Runs a batch update.
    func update(_ statement: SQLFragment) throws -> Written {
        try written(by: statement, request: nil)
    }

    /// Runs the request's statement: its rows when it returns them, and how many it wrote.
    private func written(by statement: SQLFragment, request: FetchRequest?) throws -> Written {
        let matched = try run(statement, request: request)
        return Written(matched: matched, matchedCount: matched.isEmpty ? connection.changes : matched.count)
    }

    /// The refusal a trigger raised, if the error is one.
    private static func refusal(in error: SQLiteError, _ triggers: DeleteRuleTriggers) -> DeleteRulePlan.Refusal? {
        guard let range = error.message.range(of: DeleteRuleTriggers.refusalPrefix),
            let index = Int(error.message[range.upperBound...].prefix { $0.isNumber }),
            triggers.refusals.indices.contains(index)
        else { return nil }
        return triggers.refusals[index]
    }

    /// Runs a statement returning `Z_ENT, Z_PK` and collects its rows.
    private func run(_ fragment: SQLFragment, request: FetchRequest?) throws -> [Row] {
        let statement = try connection.prepareUncached(fragment.sql)
        let request = request ?? FetchRequest(entityName: "")
        for (offset, binding) in fragment.bindings.enumerated() {
            try statement.bind(binding.resolve(constants: [], request: request), at: offset + 1)
        }
        var rows: [Row] = []
        while try statement.step() { rows.append(Row(entity: Int(statement.int64(0)), key: statement.int64(1))) }
        return rows
    }

    private func rows(_ sql: String) throws -> [Row] {
        try run(SQLFragment(sql), request: nil)
    }
}
