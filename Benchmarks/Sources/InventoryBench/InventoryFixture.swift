import CDQIModel
import CDQIStore
import CSQLiteRaw
import Foundation

/// The benchmark's files: stores laid out by our store (Core Data's layout: ZITEM, ZCATEGORY, ZPART,
/// Z_PRIMARYKEY, Z_METADATA and their indexes), which the raw and GRDB contenders use as they are, so
/// that all three read and write the same tables, indexes and rows, in WAL mode.
public final class InventoryFixture {
    public let model: ManagedObjectModel
    public let folder: URL
    public let data: InventoryData
    /// The store every read workload uses: `data.itemCount` items, their parts, 100 categories.
    public let populatedURL: URL
    /// An empty store with the 100 categories only, copied for each insert run.
    public let templateURL: URL
    /// Entity numbers (`Z_ENT`) of the store.
    public let itemEntity: Int64, categoryEntity: Int64, partEntity: Int64

    /// The benchmark model, `Benchmarks/Model/Inventory.xcdatamodeld`, loaded with CDQIModel's loader.
    public static func loadModel() throws -> ManagedObjectModel {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Model/Inventory.xcdatamodeld")
        return try ModelLoader().load(url: url).model
    }

    public init(itemCount: Int) throws {
        model = try Self.loadModel()
        data = InventoryData(itemCount: itemCount)
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        templateURL = folder.appendingPathComponent("template.sqlite")
        populatedURL = folder.appendingPathComponent("inventory.sqlite")
        // Our store creates the schema; then the container is released, closing its connection.
        do { _ = try PersistentContainer(model: model, url: templateURL) }
        let raw = try RawSQLite(path: templateURL.path)
        func entity(_ name: String) throws -> Int64 {
            let statement = try raw.prepare("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = ?")
            statement.handle.bindText(name, at: 1)
            guard sqlite3_step(statement.handle) == SQLITE_ROW else {
                throw RawSQLite.Failure(description: "no entity \(name) in Z_PRIMARYKEY")
            }
            return sqlite3_column_int64(statement.handle, 0)
        }
        itemEntity = try entity("Item")
        categoryEntity = try entity("Category")
        partEntity = try entity("Part")
        try Self.insertCategories(raw, entity: categoryEntity)
        try raw.exec("PRAGMA wal_checkpoint(TRUNCATE)")
        try Self.copyStore(from: templateURL, to: populatedURL)
        try populate(populatedURL, itemCount: itemCount)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// A connection to the populated store that only checkpoints it (see ``checkpointPopulatedStore()``).
    private var checkpointer: RawSQLite?

    /// Copies the populated store's WAL into the main file and has the next write start the WAL over.
    /// Run before each timed run of a write workload: otherwise whichever contender's commit takes the
    /// WAL past SQLite's automatic checkpoint (1000 pages) also pays for that checkpoint, which made W7's
    /// figures swing by a third from run to run.
    public func checkpointPopulatedStore() throws {
        let db = try checkpointer ?? RawSQLite(path: populatedURL.path)
        checkpointer = db
        let statement = try db.prepare("PRAGMA wal_checkpoint(RESTART)")
        guard sqlite3_step(statement.handle) == SQLITE_ROW, sqlite3_column_int(statement.handle, 0) == 0 else {
            throw RawSQLite.Failure(description: "the checkpoint of \(populatedURL.path) could not complete")
        }
    }

    /// `contender` with a checkpoint of the populated store (untimed) before each run.
    public func startingFromCheckpoint(_ contender: Contender) -> Contender {
        var result = contender
        result.prepare = { [self] in
            try contender.prepare()
            try checkpointPopulatedStore()
        }
        return result
    }

    /// A fresh copy of the template (categories only) under `name`, for an insert run.
    public func freshStore(named name: String) throws -> URL {
        let url = folder.appendingPathComponent(name)
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
        try Self.copyStore(from: templateURL, to: url)
        return url
    }

    /// A store with `itemCount` items (and their parts), written with the raw C API.
    public func makePopulatedStore(named name: String, itemCount: Int, withParts: Bool = true) throws -> URL {
        let url = try freshStore(named: name)
        try populate(url, itemCount: itemCount, withParts: withParts)
        return url
    }

    private func populate(_ url: URL, itemCount: Int, withParts: Bool = true) throws {
        let raw = try RawSQLite(path: url.path)
        try raw.exec("BEGIN IMMEDIATE")
        let insertItem = try raw.prepare(RawItemInsert.sql(withCategory: true))
        let insertPart = try raw.prepare(
            "INSERT INTO ZPART (Z_PK, Z_ENT, Z_OPT, ZKIND, ZNAME, ZITEM) VALUES (?, ?, 1, ?, ?, ?)")
        var partKey: Int64 = 0
        for i in 0..<itemCount {
            let item = InventoryData.item(i)
            let s = insertItem.handle
            s.bindItem(item, key: Int64(i + 1), entity: itemEntity)
            sqlite3_bind_int64(s, 11, Int64(item.category + 1))
            try raw.check(sqlite3_step(s))
            sqlite3_reset(s)
            guard withParts else { continue }
            for j in 0..<InventoryData.partCount(i) {
                partKey += 1
                let p = insertPart.handle
                sqlite3_bind_int64(p, 1, partKey)
                sqlite3_bind_int64(p, 2, partEntity)
                sqlite3_bind_int(p, 3, Int32(InventoryData.partKind(item: i, part: j)))
                p.bindText("Part \(i)-\(j)", at: 4)
                sqlite3_bind_int64(p, 5, Int64(i + 1))
                try raw.check(sqlite3_step(p))
                sqlite3_reset(p)
            }
        }
        try raw.exec("UPDATE Z_PRIMARYKEY SET Z_MAX = \(itemCount) WHERE Z_NAME = 'Item'")
        try raw.exec("UPDATE Z_PRIMARYKEY SET Z_MAX = \(partKey) WHERE Z_NAME = 'Part'")
        try raw.exec("COMMIT")
        try raw.exec("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    private static func insertCategories(_ raw: RawSQLite, entity: Int64) throws {
        try raw.exec("BEGIN IMMEDIATE")
        let insert = try raw.prepare("INSERT INTO ZCATEGORY (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, ?, 1, ?)")
        for c in 0..<InventoryData.categoryCount {
            sqlite3_bind_int64(insert.handle, 1, Int64(c + 1))
            sqlite3_bind_int64(insert.handle, 2, entity)
            insert.handle.bindText(InventoryData.categoryName(c), at: 3)
            try raw.check(sqlite3_step(insert.handle))
            sqlite3_reset(insert.handle)
        }
        try raw.exec("UPDATE Z_PRIMARYKEY SET Z_MAX = \(InventoryData.categoryCount) WHERE Z_NAME = 'Category'")
        try raw.exec("COMMIT")
    }

    /// Copies a store whose WAL has been checkpointed and truncated (the main file holds everything).
    private static func copyStore(from source: URL, to destination: URL) throws {
        try FileManager.default.copyItem(at: source, to: destination)
    }
}
