import CDQIModel
import CDQIObjects
import Foundation

/// A Core Data SQLite store file, opened for one model.
///
/// A new (or empty) file is created in Core Data's layout: the bookkeeping tables, one table per
/// entity hierarchy, join tables, indexes, the entity rows of `Z_PRIMARYKEY`, and metadata whose version
/// hashes are the ones Apple's Core Data computes, so Apple's Core Data accepts the store as written for
/// the same model. An existing file is checked against the model before anything is written to it: a
/// store written for another model is refused with every difference named, and left byte for byte as
/// it was.
///
/// ```swift
/// let store = try SQLiteStore(model: model, url: URL(fileURLWithPath: "Company.sqlite"))
/// try store.rowCount(of: "Employee")   // 0
/// ```
public final class SQLiteStore {
    /// The model the store holds objects of.
    public let model: ManagedObjectModel
    /// Where the model's entities live in the file.
    public let schema: StoreSchema
    /// The store's metadata.
    public let metadata: StoreMetadata
    /// The file, or `nil` for an in-memory store.
    public let url: URL?
    /// The store's connection.
    public let connection: SQLiteConnection
    /// Fetches compiled so far, by shape.
    let fetchCache = CompiledFetchCache()

    /// Opens the store at `url` (creating it when the file is missing or empty), or an in-memory store
    /// when `url` is `nil`.
    ///
    /// Of several processes creating one store, one creates it and the others open it. An open waits for
    /// other connections' locks (a process still creating the store, for one) for up to a minute in all,
    /// then throws ``StoreError/locked(path:seconds:)``.
    ///
    /// - Parameter readOnly: open the file read-only: it must be a store already, and nothing about it
    ///   changes (no journal mode switch, no checkpoint of its write-ahead log, no sidecar removed). A
    ///   file left with an interrupted write is read as it will be once rolled back, from a copy (see
    ///   ``SQLiteConnection/openForReading(path:)``).
    /// - Parameter keepsJournalMode: leave an existing store file in the journal mode it has (a
    ///   rollback-journal store stays one) instead of switching it to write-ahead logging, as Core Data
    ///   does on opening. A new store is always created in WAL mode.
    public init(
        model: ManagedObjectModel, url: URL?, readOnly: Bool = false, keepsJournalMode: Bool = false
    ) throws(StoreError) {
        self.model = model
        self.url = url
        let path = url?.path ?? ":memory:"
        schema = StoreSchema(model: model)
        do {
            // Another process may be creating this store right now: its locks make a step here fail with
            // SQLITE_BUSY (reading the schema, switching to WAL, creating), and the whole open is tried
            // again, on a new connection, until the creator is done.
            let (schema, isFile) = (schema, url != nil)
            (connection, metadata) = try Self.waitingForOtherConnections(path: path) {
                () throws -> (SQLiteConnection, StoreMetadata) in
                // Read-only, a file left with an interrupted write is read from a rolled-back copy.
                let connection =
                    readOnly && isFile
                    ? try SQLiteConnection.openForReading(path: path)
                    : try SQLiteConnection(path: path, mode: .readWriteCreate)
                try SQLiteFunctions.register(on: connection)
                if try Self.tableNames(connection).isEmpty {
                    if readOnly && isFile {
                        throw StoreError.notACoreDataStore(path: path, reason: "it has no tables (a read-only open creates no store)")
                    }
                    if let created = try Self.createIfEmpty(connection, schema: schema, model: model) {
                        return (connection, created)
                    }
                    let metadata = try Self.verify(connection, path: path, model: model, schema: schema)
                    try connection.enableWriteAheadLog()
                    return (connection, metadata)
                }
                let metadata = try Self.verify(connection, path: path, model: model, schema: schema)
                if !readOnly && !keepsJournalMode { try connection.enableWriteAheadLog() }
                return (connection, metadata)
            }
        } catch let error as StoreError {
            throw error
        } catch let error as SQLiteError {
            throw .classifying(error, path: path)
        } catch {
            throw .notACoreDataStore(path: path, reason: "\(error)")
        }
    }

    /// Another connection to the same store file, for reading only: it shares this store's model,
    /// schema and metadata (checked when this store was opened) and has its own statement and fetch
    /// caches. The file must be in WAL mode (every store file this type opens is), so that the reader
    /// never waits for the writer and each of its statements reads one committed state of the file.
    init(readerOf store: SQLiteStore) throws(StoreError) {
        guard let url = store.url else {
            throw .sqlite(SQLiteError(code: 1, message: "an in-memory store has no second connection"))
        }
        model = store.model
        schema = store.schema
        metadata = store.metadata
        self.url = url
        do {
            // The file the store reads: its own, or the rolled-back copy a read-only store reads.
            connection = try SQLiteConnection(path: store.connection.path, mode: .readOnly)
            connection.keptAlive = store.connection.keptAlive
            try SQLiteFunctions.register(on: connection)
        } catch {
            throw .sqlite(error)
        }
    }

    /// The number of stored objects of an entity (its sub-entities' objects included, unless told not to).
    public func rowCount(of entityName: String, includingSubentities: Bool = true) throws(StoreError) -> Int {
        guard let entity = schema.entity(named: entityName) else {
            throw .modelMismatch(path: url?.path ?? ":memory:", differences: ["the model has no entity '\(entityName)'"])
        }
        let numbers = includingSubentities ? entity.numbersIncludingSubentities : [entity.number]
        do {
            // Pre-order numbering makes an entity and its descendants one contiguous range.
            let statement = try connection.prepare("SELECT COUNT(*) FROM \(entity.tableName) WHERE Z_ENT BETWEEN ? AND ?")
            try statement.bind(Int64(numbers.min() ?? entity.number), at: 1)
            try statement.bind(Int64(numbers.max() ?? entity.number), at: 2)
            guard try statement.step() else { return 0 }
            return Int(statement.int64(0))
        } catch {
            throw .sqlite(error)
        }
    }

    // MARK: Creating

    /// Creates the store's tables when the file has none, and returns its new metadata; returns `nil`
    /// when another connection (another process) created them first, so that the caller opens that
    /// store instead. The check and the creation happen under one write lock (`BEGIN IMMEDIATE`):
    /// of two processes creating one store, exactly one writes the tables and the other sees them.
    private static func createIfEmpty(
        _ connection: SQLiteConnection, schema: StoreSchema, model: ManagedObjectModel
    ) throws -> StoreMetadata? {
        // auto_vacuum must be chosen before the first table exists; Core Data uses INCREMENTAL. Both
        // pragmas are settings of an empty file, harmless when another process got there first
        // (auto_vacuum changes nothing once tables exist; the store is WAL either way).
        try connection.execute("PRAGMA auto_vacuum = 2")
        try connection.enableWriteAheadLog()
        let metadata = StoreMetadata(model: model)
        let plist = try metadata.storePropertyList()
        return try connection.writeTransaction { () throws -> StoreMetadata? in
            guard try tableNames(connection).isEmpty else { return nil }
            for statement in StoreSchema.bookkeepingStatements + schema.createStatements {
                try connection.execute(statement)
            }
            let insertEntity = try connection.prepare(
                "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)")
            for entity in schema.entities {
                try insertEntity.bind(Int64(entity.number), at: 1)
                try insertEntity.bind(entity.name, at: 2)
                try insertEntity.bind(Int64(entity.superNumber), at: 3)
                try insertEntity.run()
            }
            let insertMetadata = try connection.prepare(
                "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)")
            try insertMetadata.bind(metadata.uuid, at: 1)
            try insertMetadata.bind(plist, at: 2)
            try insertMetadata.run()
            try writeModelCache(model, on: connection)
            return metadata
        }
    }

    // MARK: Opening

    private static func tableNames(_ connection: SQLiteConnection) throws(SQLiteError) -> Set<String> {
        let statement = try connection.prepareUncached("SELECT name FROM sqlite_master WHERE type = 'table'")
        var names: Set<String> = []
        while try statement.step() { names.insert(statement.string(0)) }
        return names
    }

    /// Reads the metadata and checks the file against the model, writing nothing.
    private static func verify(
        _ connection: SQLiteConnection, path: String, model: ManagedObjectModel, schema: StoreSchema
    ) throws -> StoreMetadata {
        let tables = try tableNames(connection)
        guard tables.contains("Z_METADATA"), tables.contains("Z_PRIMARYKEY") else {
            throw StoreError.notACoreDataStore(path: path, reason: "it has no Z_METADATA and Z_PRIMARYKEY tables")
        }
        let row = try connection.prepareUncached("SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1")
        guard try row.step(), !row.isNull(1) else {
            throw StoreError.unreadableMetadata(path: path, reason: "Z_METADATA has no property list")
        }
        let metadata = try StoreMetadata.read(uuid: row.string(0), plist: row.data(1), path: path)
        // An entity whose hash differs is described by its properties, from the columns of its table.
        var differences = try metadata.differences(from: model) { name in
            try propertyDifferences(of: name, connection, tables: tables, model: model, schema: schema)
        }
        if differences.isEmpty {
            differences = try layoutDifferences(connection, tables: tables, model: model, schema: schema)
        }
        if !differences.isEmpty { throw StoreError.modelMismatch(path: path, differences: differences) }
        return metadata
    }

    /// How an entity's stored properties in the model differ from its table's columns in the file
    /// (read here, compared by ``StoreSchema/propertyDifferences(of:model:storedColumns:columnType:)``).
    private static func propertyDifferences(
        of entityName: String, _ connection: SQLiteConnection, tables: Set<String>, model: ManagedObjectModel,
        schema: StoreSchema
    ) throws -> [String] {
        guard let mapping = schema.entity(named: entityName), model.entity(named: entityName) != nil,
            let table = schema.table(named: mapping.tableName), tables.contains(table.name)
        else { return [] }
        let info = try connection.prepareUncached("SELECT name, type FROM pragma_table_info(?)")
        try info.bind(table.name, at: 1)
        var stored: [String: String] = [:]
        while try info.step() { stored[info.string(0)] = info.string(1).uppercased() }
        return schema.propertyDifferences(of: entityName, model: model, storedColumns: stored)
    }

    /// Entity numbers, tables and columns the model needs that the file does not have.
    private static func layoutDifferences(
        _ connection: SQLiteConnection, tables: Set<String>, model: ManagedObjectModel, schema: StoreSchema
    ) throws -> [String] {
        var differences: [String] = []
        let numbers = try connection.prepareUncached("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT < 16000")
        var stored: [Int: String] = [:]
        while try numbers.step() { stored[Int(numbers.int64(0))] = numbers.string(1) }
        for entity in schema.entities {
            let names = [entity.name, model.entity(named: entity.name)?.renamingIdentifier].compactMap { $0 }
            if let found = stored[entity.number], !names.contains(found) {
                differences.append("entity '\(entity.name)' should be number \(entity.number), which the store gives to '\(found)'")
            } else if stored[entity.number] == nil {
                differences.append("entity '\(entity.name)' (number \(entity.number)) is missing from Z_PRIMARYKEY")
            }
        }
        for table in schema.tables {
            guard tables.contains(table.name) else {
                differences.append("table \(table.name) is missing")
                continue
            }
            let info = try connection.prepareUncached("SELECT name FROM pragma_table_info(?)")
            try info.bind(table.name, at: 1)
            var columns: Set<String> = []
            while try info.step() { columns.insert(info.string(0)) }
            for column in table.columns where !columns.contains(column.name) {
                differences.append("table \(table.name) has no column \(column.name)")
            }
        }
        for join in schema.joinTables where !tables.contains(join.name) {
            differences.append("join table \(join.name) is missing")
        }
        return differences
    }
}
