import CDQIObjects
import CSQLite

/// The `Z_OPT` bumps a batch delete owes the destinations of its Nullify rules whose inverse is a
/// to-many (`DeleteRulePlan.Action.bumpReferenced`): each deleted row naming a destination adds one to
/// its version, as Core Data's per-row trigger does.
///
/// Instead of an `UPDATE` per deleted row, the delete-rule triggers call `cdqi_batch_bump(slot, key)`,
/// which counts the row here (`slot` numbers the destination table in ``tables``), and ``apply(on:noting:)``
/// then adds each destination's count once, after the `DELETE`, in the same transaction. The versions end
/// the same: additions commute, nothing a batch runs reads `Z_OPT`, and a destination the batch deletes
/// (before or after a row naming it) is gone either way. A key is matched as `Z_PK = key` would match it
/// (numeric text and integral reals name their row; NULL, blobs and fractions name none).
///
/// The function is registered on the connection for one batch (``register(on:)``, ``unregister(from:)``),
/// `SQLITE_DIRECTONLY`, so only the batch's own temporary triggers can call it, never a trigger or view of
/// the store file.
final class DeleteRuleBumps {
    static let functionName = "cdqi_batch_bump"

    /// The destination tables, by slot.
    let tables: [String]
    /// Per slot, how many deleted rows named each destination key. Allocated once, `tables.count` of
    /// them: counting (once per deleted row) then needs no exclusivity check of a stored property.
    private let counts: UnsafeMutablePointer<KeyCounts>

    init(tables: [String]) {
        self.tables = tables
        counts = .allocate(capacity: tables.count)
        for slot in tables.indices { (counts + slot).initialize(to: KeyCounts()) }
    }

    deinit {
        for slot in tables.indices { counts[slot].release() }
        counts.deinitialize(count: tables.count)
        counts.deallocate()
    }

    /// Counts one deleted row naming `key` in the table of `slot`; nothing for a slot out of range.
    fileprivate func note(slot: Int64, key: Int64) {
        guard slot >= 0, slot < tables.count else { return }
        counts[Int(slot)].add(key)
    }

    /// Makes `cdqi_batch_bump` count into this object on `connection` (SQLite keeps it alive until
    /// ``unregister(from:)`` or the connection closes).
    func register(on connection: SQLiteConnection) throws(SQLiteError) {
        // On failure SQLite calls the destructor, which releases the retain taken here.
        let code = sqlite3_create_function_v2(
            connection.handle, Self.functionName, 2, SQLITE_UTF8 | SQLITE_DIRECTONLY,
            Unmanaged.passRetained(self).toOpaque(), countBump, nil, nil, releaseBumps)
        if code != SQLITE_OK { throw SQLiteError(connection: connection.handle, code: code, sql: nil) }
    }

    /// Removes `cdqi_batch_bump` from `connection`, releasing the object it counted into.
    static func unregister(from connection: SQLiteConnection) {
        sqlite3_create_function_v2(connection.handle, functionName, 2, SQLITE_UTF8 | SQLITE_DIRECTONLY, nil, nil, nil, nil, nil)
    }

    /// Adds the counted bumps to the destinations still stored (one `UPDATE` per destination, in key
    /// order) and, when `noting`, returns the rows changed.
    func apply(on connection: SQLiteConnection, noting: Bool) throws(SQLiteError) -> [BatchWriter.Row] {
        var changed: [BatchWriter.Row] = []
        for (slot, table) in tables.enumerated() where counts[slot].count > 0 {
            let statement = try connection.prepareUncached(
                "UPDATE \(table) SET Z_OPT = Z_OPT + ?1 WHERE Z_PK = ?2\(noting ? " RETURNING Z_ENT, Z_PK" : "")")
            for (key, count) in counts[slot].pairs.sorted(by: { $0.key < $1.key }) {
                try statement.bind(count, at: 1)
                try statement.bind(key, at: 2)
                while try statement.step() { changed.append(BatchWriter.Row(entity: Int(statement.int64(0)), key: statement.int64(1))) }
                statement.rewind()
            }
        }
        return changed
    }
}

/// `cdqi_batch_bump(slot, key)`: counts a deleted row naming `key`; returns NULL.
private let countBump: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, count, arguments in
    guard count == 2, let arguments, let data = sqlite3_user_data(context), let slot = arguments[0], let value = arguments[1]
    else { return }
    // As `Z_PK = value` compares: numeric affinity first, then only an integer (or integral real) matches.
    let key: Int64
    switch sqlite3_value_numeric_type(value) {
    case SQLITE_INTEGER: key = sqlite3_value_int64(value)
    case SQLITE_FLOAT:
        guard let integral = Int64(exactly: sqlite3_value_double(value)) else { return }
        key = integral
    default: return
    }
    Unmanaged<DeleteRuleBumps>.fromOpaque(data).takeUnretainedValue().note(slot: sqlite3_value_int64(slot), key: key)
}

/// Releases the counter SQLite held for `cdqi_batch_bump`.
private let releaseBumps: @convention(c) (UnsafeMutableRawPointer?) -> Void = { data in
    guard let data else { return }
    Unmanaged<DeleteRuleBumps>.fromOpaque(data).release()
}
