extension SQLiteConnection {
    /// Opens a store to read it: read-only, unless a write interrupted by a crash left a hot rollback
    /// journal (or a WAL that needs recovery), which only a read-write connection can roll back; SQLite
    /// then restores the last committed state, as any later opening of the store would.
    public static func openForReading(path: String) throws(SQLiteError) -> SQLiteConnection {
        let readOnly = try SQLiteConnection(path: path, mode: .readOnly)
        do {
            let probe = try readOnly.prepareUncached("SELECT COUNT(*) FROM sqlite_master")
            _ = try probe.step()
            return readOnly
        } catch {
            // SQLITE_READONLY_ROLLBACK (776) and SQLITE_READONLY_RECOVERY (1032).
            guard error.extendedCode == 776 || error.extendedCode == 1032 else { throw error }
        }
        return try SQLiteConnection(path: path, mode: .readWrite)
    }
}
