import CDQIModel
import CDQIStore
import Foundation

/// Checks a store file for damage, reading it only (it is opened read-only and never written):
/// SQLite's `PRAGMA integrity_check`, then Core Data's own bookkeeping, which SQLite cannot check:
///
/// - every row's `Z_ENT` is an entity number (of the model when one is given, else of `Z_PRIMARYKEY`);
/// - every `Z_PRIMARYKEY.Z_MAX` of a root entity is an integer at least the largest `Z_PK` of its table;
/// - with a model: every to-one relationship column names an existing row of its destination's table
///   (no dangling to-ones), and every join-table row names existing rows on both sides.
///
/// ```swift
/// let findings = try StoreChecker(model: model).check(storeURL)   // [] for a sound store
/// ```
public struct StoreChecker {
    /// The model of the store, for the reference checks; `nil` checks only what needs no model.
    public let model: ManagedObjectModel?

    /// The most findings reported per check (a damaged file can have millions of bad rows).
    public var limit = 20

    /// Creates a checker, with or without the store's model.
    public init(model: ManagedObjectModel? = nil) {
        self.model = model
    }

    /// The problems found in the store at `url`, one sentence each; empty when there are none.
    ///
    /// - Throws: ``InterchangeError/store(_:)`` when the file cannot be opened or read at all (missing,
    ///   not a database); damage SQLite meets while checking is a finding, not an error.
    public func check(_ url: URL) throws(InterchangeError) -> [String] {
        do {
            try StoreQuery.checkExists(url)
        } catch {
            throw .store(error.description)
        }
        let connection: SQLiteConnection
        do {
            // A store left with an interrupted write is checked as it will be once rolled back.
            connection = try SQLiteConnection.openForReading(path: url.path)
        } catch {
            throw .store("\(url.path): \(StoreError.classifying(error, path: url.path).description)")
        }
        var findings: [String] = []
        do {
            findings += try integrity(connection)
        } catch {
            // integrity_check itself fails on a file that is not a database, or damaged beyond reading.
            return ["\(StoreError.classifying(error, path: url.path).description)"]
        }
        do {
            findings += try bookkeeping(connection)
        } catch {
            findings.append("the Core Data tables cannot be read: \(StoreError.classifying(error, path: url.path).description)")
        }
        return findings
    }

    // MARK: Checks

    private func integrity(_ connection: SQLiteConnection) throws(SQLiteError) -> [String] {
        let statement = try connection.prepareUncached("PRAGMA integrity_check(\(limit))")
        var lines: [String] = []
        while try statement.step() { lines.append(statement.string(0)) }
        return lines == ["ok"] ? [] : lines.map { "integrity_check: \($0)" }
    }

    private func bookkeeping(_ connection: SQLiteConnection) throws(SQLiteError) -> [String] {
        let tables = try Self.tables(connection)
        guard tables["Z_PRIMARYKEY"] != nil, tables["Z_METADATA"] != nil else {
            return ["not a Core Data store: it has no Z_PRIMARYKEY and Z_METADATA tables"]
        }
        var findings: [String] = []
        // Entity numbers and names in Z_PRIMARYKEY.
        var stored: [(number: Int64, name: String, isRoot: Bool, maximum: String, maximumType: String)] = []
        let rows = try connection.prepareUncached("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX, typeof(Z_MAX) FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        while try rows.step() {
            stored.append((rows.int64(0), rows.string(1), rows.int64(2) == 0, rows.string(3), rows.string(4)))
        }
        let schema = model.map { StoreSchema(model: $0) }

        // Z_ENT of every row of every entity table.
        var entityTables: [(table: String, numbers: [Int64])] = []
        if let schema {
            for table in schema.tables where tables[table.name] != nil {
                let numbers = schema.entities.filter { $0.tableName == table.name }.map { Int64($0.number) }
                entityTables.append((table.name, numbers))
            }
        } else {
            let numbers = stored.map(\.number)
            for (name, columns) in tables.sorted(by: { $0.key < $1.key })
            where name != "Z_PRIMARYKEY" && columns.contains("Z_ENT") && columns.contains("Z_PK") {
                entityTables.append((name, numbers))
            }
        }
        for (table, numbers) in entityTables {
            let list = numbers.map(String.init).joined(separator: ", ")
            let sql =
                "SELECT Z_PK, quote(Z_ENT) FROM \(Self.quoted(table)) WHERE typeof(Z_ENT) != 'integer' OR Z_ENT NOT IN (\(list)) ORDER BY Z_PK LIMIT \(limit)"
            let statement = try connection.prepareUncached(sql)
            while try statement.step() {
                findings.append(
                    "\(table) row Z_PK \(statement.int64(0)) has Z_ENT \(statement.string(1)), which is no entity of the \(schema == nil ? "store" : "model")")
            }
        }

        // Z_MAX of every root entity.
        for entry in stored where entry.isRoot {
            let table = schema?.entity(named: entry.name)?.tableName ?? "Z" + entry.name.uppercased()
            guard tables[table] != nil else { continue }
            guard entry.maximumType == "integer" else {
                findings.append("Z_PRIMARYKEY.Z_MAX of \(entry.name) (Z_ENT \(entry.number)) is \(entry.maximum), not an integer")
                continue
            }
            let statement = try connection.prepareUncached("SELECT MAX(Z_PK) FROM \(Self.quoted(table))")
            if try statement.step(), !statement.isNull(0), let maximum = Int64(entry.maximum), statement.int64(0) > maximum {
                findings.append(
                    "Z_PRIMARYKEY.Z_MAX of \(entry.name) (Z_ENT \(entry.number)) is \(maximum), below the largest Z_PK \(statement.int64(0)) of \(table): new objects would reuse keys"
                )
            }
        }

        guard let model, let schema else { return findings }
        // Dangling to-ones.
        for entity in schema.entities {
            guard let description = model.entity(named: entity.name), tables[entity.tableName] != nil else { continue }
            for relationship in model.allRelationships(of: description) where !relationship.isToMany && !relationship.isTransient {
                guard let column = entity.columns[relationship.name]?.value,
                    let destination = schema.entity(named: relationship.destinationEntityName),
                    tables[destination.tableName] != nil
                else { continue }
                let sql = """
                    SELECT t.Z_PK, t.\(Self.quoted(column)) FROM \(Self.quoted(entity.tableName)) t
                    WHERE t.Z_ENT = \(entity.number) AND t.\(Self.quoted(column)) IS NOT NULL
                    AND NOT EXISTS (SELECT 1 FROM \(Self.quoted(destination.tableName)) d WHERE d.Z_PK = t.\(Self.quoted(column)))
                    ORDER BY t.Z_PK LIMIT \(limit)
                    """
                let statement = try connection.prepareUncached(sql)
                while try statement.step() {
                    findings.append(
                        "\(entity.name) Z_PK \(statement.int64(0)): \(relationship.name) (\(entity.tableName).\(column)) names \(relationship.destinationEntityName) Z_PK \(statement.string(1)), which \(destination.tableName) does not have"
                    )
                }
            }
        }
        // Join rows to missing rows.
        for join in schema.joinTables where tables[join.name] != nil {
            guard let source = schema.entity(named: join.sourceEntity),
                let relationship = model.entity(named: join.sourceEntity).flatMap({ entity in
                    model.allRelationships(of: entity).first { $0.name == join.relationship }
                }),
                let destination = schema.entity(named: relationship.destinationEntityName)
            else { continue }
            for (column, table, side) in [
                (join.sourceColumn, source.tableName, join.sourceEntity),
                (join.destinationColumn, destination.tableName, relationship.destinationEntityName),
            ] where tables[table] != nil {
                let sql = """
                    SELECT j.\(Self.quoted(column)) FROM \(Self.quoted(join.name)) j
                    WHERE NOT EXISTS (SELECT 1 FROM \(Self.quoted(table)) t WHERE t.Z_PK = j.\(Self.quoted(column)))
                    ORDER BY 1 LIMIT \(limit)
                    """
                let statement = try connection.prepareUncached(sql)
                while try statement.step() {
                    findings.append(
                        "join table \(join.name) (\(join.sourceEntity).\(join.relationship)): \(column) names \(side) Z_PK \(statement.string(0)), which \(table) does not have"
                    )
                }
            }
        }
        return findings
    }

    /// Every table of the file with its column names.
    private static func tables(_ connection: SQLiteConnection) throws(SQLiteError) -> [String: Set<String>] {
        let names = try connection.prepareUncached("SELECT name FROM sqlite_master WHERE type = 'table'")
        var tables: [String: Set<String>] = [:]
        while try names.step() { tables[names.string(0)] = [] }
        for name in tables.keys {
            let info = try connection.prepareUncached("SELECT name FROM pragma_table_info(?)")
            try info.bind(name, at: 1)
            var columns: Set<String> = []
            while try info.step() { columns.insert(info.string(0)) }
            tables[name] = columns
        }
        return tables
    }

    /// An identifier quoted for SQL (`"` doubled): table names come from the file, which may be hostile.
    private static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
