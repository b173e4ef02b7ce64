import CDQIModel
import CDQIPredicate
import CDQISQL
import Foundation

/// Core Data's store layout (``StoreSchema``: `ZEMPLOYEE`, `Z_PK`, `Z_ENT`, `Z_OPT`, join tables,
/// indexes, `Z_PRIMARYKEY`, `Z_METADATA`, `Z_MODELCACHE`) in a PostgreSQL schema of the user's choice.
///
/// Names are Core Data's exactly, upper case, so they are always quoted (`"ZEMPLOYEE"."Z_PK"`).
/// Column types keep values as the SQLite store keeps them, so that they round-trip identically:
/// integers and booleans `bigint`; dates (seconds since 2001-01-01), doubles, floats and decimals
/// `double precision`; strings and URIs `text`; data, UUIDs and transformables `bytea`.
///
/// ``open(_:)`` creates the tables in an empty schema, or checks a schema that has them against the
/// model (entity version hashes, as the SQLite store does), under a transaction-scoped advisory lock
/// so that processes opening one new store at once create it exactly once.
/// ``allocateKeys(_:rootEntityNumber:count:)`` takes primary keys from `Z_PRIMARYKEY` under its row
/// lock, so that processes on any number of machines never get the same key.
public struct PostgresStoreLayout: Sendable {
    /// The model.
    public let model: ManagedObjectModel
    /// How the model maps onto tables and columns (the SQLite store's mapping).
    public let storeSchema: StoreSchema
    /// The PostgreSQL schema holding the tables.
    public let schemaName: String

    /// The layout of `model` in the schema `schemaName`.
    public init(model: ManagedObjectModel, schemaName: String) {
        self.model = model
        storeSchema = StoreSchema(model: model)
        self.schemaName = schemaName
    }

    /// PostgreSQL's longest identifier, in bytes (`NAMEDATALEN - 1`).
    public static let maximumIdentifierLength = 63

    /// The PostgreSQL type of a column the SQLite layout declares as `sqliteType`.
    public static func columnType(forSQLiteType sqliteType: String) -> String {
        switch sqliteType.uppercased() {
        case "INTEGER": "bigint"
        case "TIMESTAMP", "FLOAT", "DECIMAL": "double precision"
        case "VARCHAR": "text"
        default: "bytea"
        }
    }

    /// `name` quoted, qualified by the schema: `"sales"."ZEMPLOYEE"`.
    public func qualified(_ name: String) -> String {
        PostgresConnection.quoteIdentifier(schemaName) + "." + PostgresConnection.quoteIdentifier(name)
    }

    // MARK: Statements

    /// The statements creating the bookkeeping tables, the entity tables, the join tables and the
    /// indexes. Index names longer than 63 bytes are shortened to 54 bytes and a hash of the whole
    /// name; a longer table or column name is refused.
    public func createStatements() throws(PostgresStoreError) -> [String] {
        let q = PostgresConnection.quoteIdentifier
        var statements = [
            "CREATE TABLE \(qualified("Z_PRIMARYKEY")) (\(q("Z_ENT")) bigint PRIMARY KEY, \(q("Z_NAME")) text, "
                + "\(q("Z_SUPER")) bigint, \(q("Z_MAX")) bigint)",
            "CREATE TABLE \(qualified("Z_METADATA")) (\(q("Z_VERSION")) bigint PRIMARY KEY, \(q("Z_UUID")) text, "
                + "\(q("Z_PLIST")) bytea)",
            "CREATE TABLE \(qualified("Z_MODELCACHE")) (\(q("Z_CONTENT")) bytea)",
        ]
        func checked(_ name: String) throws(PostgresStoreError) -> String {
            guard name.utf8.count <= Self.maximumIdentifierLength else { throw .identifierTooLong(name) }
            return q(name)
        }
        for table in storeSchema.tables {
            var columns = ["\(q("Z_PK")) bigint PRIMARY KEY", "\(q("Z_ENT")) bigint", "\(q("Z_OPT")) bigint"]
            for column in table.columns {
                columns.append("\(try checked(column.name)) \(Self.columnType(forSQLiteType: column.type))")
            }
            _ = try checked(table.name)
            statements.append("CREATE TABLE \(qualified(table.name)) (\(columns.joined(separator: ", ")))")
        }
        for join in storeSchema.joinTables {
            _ = try checked(join.name)
            var columns = ["\(try checked(join.sourceColumn)) bigint", "\(try checked(join.destinationColumn)) bigint"]
            if let order = join.orderColumn { columns.append("\(try checked(order)) bigint") }
            columns.append("PRIMARY KEY (\(q(join.sourceColumn)), \(q(join.destinationColumn)))")
            statements.append("CREATE TABLE \(qualified(join.name)) (\(columns.joined(separator: ", ")))")
        }
        for index in storeSchema.indexes {
            let kind = index.isUnique ? "CREATE UNIQUE INDEX" : "CREATE INDEX"
            let terms = index.terms.map(Self.indexTerm).joined(separator: ", ")
            statements.append("\(kind) \(q(Self.indexName(index.name))) ON \(qualified(index.table)) (\(terms))")
        }
        return statements
    }

    /// A SQLite index term (`ZNAME` or `ZNAME COLLATE BINARY DESC`) in PostgreSQL: the column quoted,
    /// SQLite's byte-wise `BINARY` collation as PostgreSQL's `"C"`, the direction kept.
    static func indexTerm(_ term: String) -> String {
        let words = term.split(separator: " ").map(String.init)
        guard let column = words.first else { return term }
        var result = PostgresConnection.quoteIdentifier(column)
        var rest = words.dropFirst()
        if rest.first?.uppercased() == "COLLATE" {
            rest = rest.dropFirst(2)
            result += " COLLATE \"C\""
        }
        if let direction = rest.first?.uppercased(), direction == "ASC" || direction == "DESC" { result += " " + direction }
        return result
    }

    /// An index name PostgreSQL keeps whole: itself when short enough, else its first 54 bytes (cut
    /// at a character boundary), `_`, and 8 hex digits of its FNV-1a hash.
    static func indexName(_ name: String) -> String {
        guard name.utf8.count > maximumIdentifierLength else { return name }
        var hash: UInt32 = 2_166_136_261
        for byte in name.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        var prefix = ""
        for character in name {
            guard prefix.utf8.count + character.utf8.count <= 54 else { break }
            prefix.append(character)
        }
        let hex = String(hash, radix: 16)
        return prefix + "_" + String(repeating: "0", count: 8 - hex.count) + hex
    }
}
