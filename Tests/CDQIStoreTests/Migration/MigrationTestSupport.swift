import CDQIModel
import CDQIStore
import Foundation

/// Helpers for the migration tests: reading a store's layout and rows straight from SQLite.
enum MigrationTestSupport {
    static let library = StoreTestSupport.packageRoot.appendingPathComponent("Fixtures/Library.xcdatamodeld")

    /// `type name sql` of every schema object, sorted by name: two stores with the same layout agree.
    static func schema(of url: URL) throws -> [String] {
        let connection = try SQLiteConnection(path: url.path, mode: .readOnly)
        let statement = try connection.prepare(
            "SELECT type, name, IFNULL(sql, '') FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
        var rows: [String] = []
        while try statement.step() { rows.append("\(statement.string(0)) \(statement.string(1)) \(statement.string(2))") }
        return rows
    }

    /// Every row of a query, each rendered as text.
    static func rows(_ sql: String, in url: URL) throws -> [[String]] {
        let connection = try SQLiteConnection(path: url.path, mode: .readOnly)
        let statement = try connection.prepare(sql)
        var rows: [[String]] = []
        while try statement.step() {
            rows.append((0..<statement.columnCount).map { statement.isNull($0) ? "NULL" : statement.string($0) })
        }
        return rows
    }

    /// The bytes of the store file and of its write-ahead log (an empty log, which SQLite leaves behind
    /// after a read-only open, holds nothing and counts as none).
    static func bytes(of url: URL) -> [Data?] {
        ["", "-wal"].map { (try? Data(contentsOf: URL(fileURLWithPath: url.path + $0))).flatMap { $0.isEmpty ? nil : $0 } }
    }
}
