import CDQISQL
import Foundation

extension SQLiteConnection {
    /// Opens a store to read it, writing nothing to its files.
    ///
    /// A write interrupted by a crash can leave a hot rollback journal (or a WAL that needs recovery),
    /// which only a read-write connection can roll back, so a read-only connection refuses the file
    /// (SQLite's `SQLITE_READONLY_ROLLBACK` and `SQLITE_READONLY_RECOVERY`). Then the file and its
    /// sidecar are copied into a private folder, the copy is rolled back there (the committed state any
    /// later opening of the store restores), and the connection reads the copy; the folder is removed
    /// when the connection closes. The original stays byte for byte as it was.
    public static func openForReading(path: String) throws(SQLiteError) -> SQLiteConnection {
        let readOnly = try SQLiteConnection(path: path, mode: .readOnly)
        do {
            try readOnly.probe()
            return readOnly
        } catch {
            // Other problems (not a database, damage) are the caller's to meet on its first read.
            guard Self.needsRollback(error) else { return readOnly }
        }
        let copy = try RolledBackCopy(of: path)
        let connection = try SQLiteConnection(path: copy.path, mode: .readOnly)
        connection.keptAlive = copy
        try connection.probe()
        return connection
    }

    /// Whether an error is SQLite's refusal to read a file whose interrupted write a read-only
    /// connection cannot roll back: `SQLITE_READONLY_ROLLBACK` (776) or `SQLITE_READONLY_RECOVERY` (1032).
    package static func needsRollback(_ error: SQLiteError) -> Bool {
        error.extendedCode == 776 || error.extendedCode == 1032
    }

    /// Reads the schema, which is where SQLite first looks for a hot journal.
    private func probe() throws(SQLiteError) {
        let statement = try prepareUncached("SELECT COUNT(*) FROM sqlite_master")
        _ = try statement.step()
    }
}

/// A store file and its rollback journal or write-ahead log, copied into a private folder and rolled
/// back there; the folder is removed when the last holder lets go.
package final class RolledBackCopy {
    /// The copied database file.
    package let path: String
    private let folder: URL

    package init(of original: String) throws(SQLiteError) {
        let manager = FileManager.default
        folder = manager.temporaryDirectory.appendingPathComponent("cdqi-rollback-\(UUID().uuidString)")
        path = folder.appendingPathComponent(URL(fileURLWithPath: original).lastPathComponent).path
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: false)
            // Copy the sidecars first: a writer that starts meanwhile rolls the journal back into the
            // file before it writes, so a later copy of the file is never newer than the journal copied.
            for suffix in ["-journal", "-wal"] where manager.fileExists(atPath: original + suffix) {
                try manager.copyItem(atPath: original + suffix, toPath: path + suffix)
            }
            try manager.copyItem(atPath: original, toPath: path)
        } catch {
            try? manager.removeItem(at: folder)
            throw SQLiteError(code: 10, message: "cannot copy \(original) to read it past an interrupted write: \(error)")
        }
        do {
            // A read-write connection rolls the copy back on its first read.
            let rollback = try SQLiteConnection(path: path, mode: .readWrite)
            let statement = try rollback.prepareUncached("SELECT COUNT(*) FROM sqlite_master")
            _ = try statement.step()
        } catch {
            try? manager.removeItem(at: folder)
            throw error
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }
}
