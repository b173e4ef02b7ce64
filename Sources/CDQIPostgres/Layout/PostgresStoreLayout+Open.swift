import CDQIModel
import CDQIPredicate
import CDQISQL
import Foundation

extension PostgresStoreLayout {
    /// Creates the store in the schema when it has no tables (creating the schema too), or checks the
    /// store it holds against the model, writing nothing; returns the store's metadata.
    ///
    /// Both happen in one transaction holding an advisory lock named after the schema
    /// (`pg_advisory_xact_lock`), so that of several processes opening one new store at once exactly
    /// one creates it and the others find it. A store written for another model is refused with
    /// ``PostgresStoreError/modelMismatch(schema:differences:)``: entity version hashes (as the SQLite
    /// store compares them), entity numbers, tables and columns.
    public func open(_ connection: PostgresConnection) throws(PostgresStoreError) -> StoreMetadata {
        do {
            return try connection.transaction { () throws -> StoreMetadata in
                try connection.query(
                    "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [.string("cdqi.layout." + schemaName)])
                try connection.queryUncached("CREATE SCHEMA IF NOT EXISTS " + PostgresConnection.quoteIdentifier(schemaName))
                let tables = try tableNames(connection)
                if tables.isEmpty { return try create(connection) }
                return try verify(connection, tables: tables)
            }
        } catch let error as PostgresStoreError {
            throw error
        } catch let error as PostgresError {
            throw .postgres(error)
        } catch {
            throw .postgres(PostgresError(kind: .server, message: "\(error)"))
        }
    }

    /// The tables of the schema.
    func tableNames(_ connection: PostgresConnection) throws(PostgresError) -> Set<String> {
        let result = try connection.query(
            "SELECT table_name::text FROM information_schema.tables WHERE table_schema = $1", [.string(schemaName)])
        var names: Set<String> = []
        for row in 0..<result.rowCount {
            if let name = try result.string(row: row, column: 0) { names.insert(name) }
        }
        return names
    }

    // MARK: Creating

    private func create(_ connection: PostgresConnection) throws -> StoreMetadata {
        for statement in try createStatements() { try connection.queryUncached(statement) }
        let insertEntity =
            "INSERT INTO \(qualified("Z_PRIMARYKEY")) (\"Z_ENT\", \"Z_NAME\", \"Z_SUPER\", \"Z_MAX\") "
            + "VALUES ($1, $2, $3, 0)"
        for entity in storeSchema.entities {
            try connection.query(
                insertEntity, [.integer(Int64(entity.number)), .string(entity.name), .integer(Int64(entity.superNumber))])
        }
        let metadata = StoreMetadata(model: model)
        try connection.query(
            "INSERT INTO \(qualified("Z_METADATA")) (\"Z_VERSION\", \"Z_UUID\", \"Z_PLIST\") VALUES (1, $1, $2)",
            [.string(metadata.uuid), .data(try propertyList(of: metadata))])
        // The model, as Core Data keeps it in its stores (a model that cannot be archived leaves it out).
        if let cache = try? model.modelCacheContent() {
            try connection.query("INSERT INTO \(qualified("Z_MODELCACHE")) (\"Z_CONTENT\") VALUES ($1)", [.data(Data(cache))])
        }
        return metadata
    }

    /// The metadata's property list as this store writes it: the SQLite store's, with `NSStoreType`
    /// `PostgreSQL` and without SQLite's auto-vacuum setting.
    private func propertyList(of metadata: StoreMetadata) throws -> Data {
        let sqlite = try metadata.propertyList()
        guard var dictionary = try PropertyListSerialization.propertyList(from: sqlite, format: nil) as? [String: Any] else {
            throw PostgresStoreError.unreadableMetadata(schema: schemaName, reason: "cannot encode the metadata")
        }
        dictionary["NSStoreType"] = "PostgreSQL"
        dictionary["_NSAutoVacuumLevel"] = nil
        return try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0)
    }

    // MARK: Verifying

    private func verify(_ connection: PostgresConnection, tables: Set<String>) throws -> StoreMetadata {
        guard tables.contains("Z_METADATA"), tables.contains("Z_PRIMARYKEY") else {
            throw PostgresStoreError.notACoreDataStore(
                schema: schemaName, reason: "it has tables but no Z_METADATA and Z_PRIMARYKEY")
        }
        let row = try connection.query(
            "SELECT \"Z_UUID\", \"Z_PLIST\" FROM \(qualified("Z_METADATA")) WHERE \"Z_VERSION\" = 1")
        guard row.rowCount == 1, let uuid = try row.string(row: 0, column: 0), let plist = try row.data(row: 0, column: 1) else {
            throw PostgresStoreError.unreadableMetadata(schema: schemaName, reason: "Z_METADATA has no row with a property list")
        }
        let metadata: StoreMetadata
        do {
            metadata = try StoreMetadata(uuid: uuid, plist: plist, path: schemaName)
        } catch {
            throw PostgresStoreError.unreadableMetadata(schema: schemaName, reason: error.reason)
        }
        // An entity whose hash differs is described by its properties, from the columns of its table.
        var differences = try metadata.differences(from: model) { name in
            try propertyDifferences(of: name, connection, tables: tables)
        }
        if differences.isEmpty { differences = try layoutDifferences(connection, tables: tables) }
        if !differences.isEmpty { throw PostgresStoreError.modelMismatch(schema: schemaName, differences: differences) }
        return metadata
    }

    /// How an entity's stored properties in the model differ from its table's columns in the schema
    /// (read here, compared by ``StoreSchema/propertyDifferences(of:model:storedColumns:columnType:)``).
    private func propertyDifferences(
        of entityName: String, _ connection: PostgresConnection, tables: Set<String>
    ) throws -> [String] {
        guard let mapping = storeSchema.entity(named: entityName), model.entity(named: entityName) != nil,
            let table = storeSchema.table(named: mapping.tableName), tables.contains(table.name)
        else { return [] }
        let result = try connection.query(
            "SELECT column_name::text, data_type::text FROM information_schema.columns "
                + "WHERE table_schema = $1 AND table_name = $2", [.string(schemaName), .string(table.name)])
        var stored: [String: String] = [:]
        for row in 0..<result.rowCount {
            if let name = try result.string(row: row, column: 0) { stored[name] = try result.string(row: row, column: 1) ?? "" }
        }
        return storeSchema.propertyDifferences(
            of: entityName, model: model, storedColumns: stored, columnType: Self.columnType(forSQLiteType:))
    }

    /// Entity numbers, tables and columns the model needs that the schema does not have.
    private func layoutDifferences(_ connection: PostgresConnection, tables: Set<String>) throws -> [String] {
        var differences: [String] = []
        let numbers = try connection.query(
            "SELECT \"Z_ENT\", \"Z_NAME\" FROM \(qualified("Z_PRIMARYKEY")) WHERE \"Z_ENT\" < 16000")
        var stored: [Int64: String] = [:]
        for row in 0..<numbers.rowCount {
            if let number = try numbers.int64(row: row, column: 0) { stored[number] = try numbers.string(row: row, column: 1) ?? "" }
        }
        for entity in storeSchema.entities {
            let names = [entity.name, model.entity(named: entity.name)?.renamingIdentifier].compactMap { $0 }
            if let found = stored[Int64(entity.number)], !names.contains(found) {
                differences.append("entity '\(entity.name)' should be number \(entity.number), which the store gives to '\(found)'")
            } else if stored[Int64(entity.number)] == nil {
                differences.append("entity '\(entity.name)' (number \(entity.number)) is missing from Z_PRIMARYKEY")
            }
        }
        let columnQuery = "SELECT column_name::text FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2"
        for table in storeSchema.tables {
            guard tables.contains(table.name) else {
                differences.append("table \(table.name) is missing")
                continue
            }
            let result = try connection.query(columnQuery, [.string(schemaName), .string(table.name)])
            var columns: Set<String> = []
            for row in 0..<result.rowCount {
                if let name = try result.string(row: row, column: 0) { columns.insert(name) }
            }
            for column in table.columns where !columns.contains(column.name) {
                differences.append("table \(table.name) has no column \(column.name)")
            }
        }
        for join in storeSchema.joinTables where !tables.contains(join.name) {
            differences.append("join table \(join.name) is missing")
        }
        return differences
    }
}
