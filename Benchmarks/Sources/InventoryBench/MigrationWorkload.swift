import CDQIModel
import CDQIStore
import CSQLiteRaw
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// W15 (issue 18): lightweight migration of a store of `rows` items from the benchmark model to
/// `Model/Inventory 2.xcdatamodel`, which renames `Item.title` to `name` (renaming identifier `title`)
/// and adds `Item.stock` (Integer 32, required, default 5). Each run starts from a fresh copy of one
/// populated store (untimed) and is checked afterwards (untimed): row count, a checksum of the renamed
/// column's values, the new column's default in every row, the `Z_METADATA` hashes equal to the new
/// model's, the kept store UUID and `Z_PRIMARYKEY`, the `Z_MODELCACHE` and the tables' columns and
/// indexes equal to a fresh store of the new model.
///
/// Three contenders: **ours**, `StoreMigration.migrateStore(at:from:to:)` (what
/// `LoadedBundle.migrateStore(at:)` and `PersistentContainer(bundle:url:migrate:)` run for one step);
/// **raw**, the same technique written by hand on the C API (a new file beside the store with the
/// destination's DDL, every row copied by `INSERT … SELECT` in one transaction, synced and renamed over
/// the original); and **raw in place**, the cheapest hand-written way (`ALTER TABLE … RENAME COLUMN`,
/// `ADD COLUMN`, an `UPDATE` filling the default, the metadata, in one transaction on the store).
/// Each contender's peak resident memory growth is measured in a child process of its own (one run),
/// as W10 does: within one process, memory freed by earlier runs hides the next run's growth.
public final class MigrationWorkload {
    public static let id = "W15"

    /// The contenders of this line.
    public enum Kind: String, CaseIterable, Sendable {
        case ours, raw, rawInPlace
    }

    let fixture: InventoryFixture
    let rows: Int
    let label: String
    let destination: ManagedObjectModel
    /// The populated store every run copies.
    let template: URL
    /// What a fresh store of the destination model holds, read once (a hand-written migration would
    /// have these as constants): its DDL, its `Z_MODELCACHE` blob and its metadata's version keys.
    let freshDDL: [String]
    /// `nil` when a fresh store has no `Z_MODELCACHE` (our SQLite stores do not carry their model yet).
    let freshModelCache: Data?
    let freshVersionKeys: [String: Any]
    /// What every result is checked against.
    let expectedColumns: Set<String>
    let expectedIndexes: Set<String>
    let expectedPrimaryKeys: [String]
    /// The fresh store's `auto_vacuum`, `page_size` and `journal_mode`.
    let expectedSettings: [String]
    let templateUUID: String
    let expectedTitleChecksum: UInt64

    /// The destination model, `Benchmarks/Model/Inventory 2.xcdatamodel`.
    public static func loadDestinationModel() throws -> ManagedObjectModel {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Model/Inventory 2.xcdatamodel")
        return try ModelLoader().load(url: url).model
    }

    /// - Parameter template: a populated store of `rows` items to copy for each run (a child process is
    ///   given its parent's); `nil` makes one.
    public init(fixture: InventoryFixture, rows: Int, label: String, template: URL? = nil) throws {
        self.fixture = fixture
        self.rows = rows
        self.label = label
        destination = try Self.loadDestinationModel()
        self.template = try template ?? fixture.makePopulatedStore(named: "migration-template.sqlite", itemCount: rows, withParts: false)
        let freshURL = fixture.folder.appendingPathComponent("migration-fresh.sqlite")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: freshURL.path + suffix) }
        do { _ = try PersistentContainer(model: destination, url: freshURL) }
        let fresh = try RawSQLite(path: freshURL.path)
        freshDDL = try Self.strings(fresh, "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")
        let hasCache = try !Self.strings(fresh, "SELECT name FROM sqlite_master WHERE name = 'Z_MODELCACHE'").isEmpty
        freshModelCache = hasCache ? try Self.blob(fresh, "SELECT Z_CONTENT FROM Z_MODELCACHE") : nil
        let freshPlist = try Self.plist(fresh)
        freshVersionKeys = freshPlist.filter { Self.versionKeys.contains($0.key) }
        expectedColumns = try Self.columns(fresh)
        expectedIndexes = try Self.indexes(fresh)
        expectedSettings = try Self.settings(fresh)
        let source = try RawSQLite(path: self.template.path)
        expectedPrimaryKeys = try Self.primaryKeys(source)
        templateUUID = try Self.strings(source, "SELECT Z_UUID FROM Z_METADATA").first ?? ""
        var checksum = Checksum()
        for i in 0..<rows { checksum.add(InventoryData.item(i).title) }
        expectedTitleChecksum = checksum.value
    }

    /// The metadata keys a migration rewrites (the rest of the source's metadata is kept).
    static let versionKeys: Set<String> = [
        "NSStoreModelVersionHashes", "NSStoreModelVersionHashesVersion", "NSStoreModelVersionIdentifiers",
        "NSPersistenceFrameworkVersion", "NSStoreModelVersionHashesDigest", "NSStoreModelVersionChecksumKey",
    ]

    // MARK: Running

    /// One timed run: seconds and peak resident memory growth in bytes.
    struct Run {
        var seconds: Double
        var peakGrowth: Int
    }

    /// The child process's side: one run of `kind` (checked), as "seconds peak-growth-bytes".
    public func childLine(kind: Kind) throws -> String {
        let run = try timedRun(kind)
        return "\(run.seconds) \(run.peakGrowth)"
    }

    /// The summary line: a warm-up run of each contender, then `rounds` rounds in rotating order, each
    /// run on a fresh copy and checked afterwards; then one run of each in a child process started with
    /// `childArguments(kind, template)`, for its peak memory growth.
    public func line(rounds: Int, child: (Kind, URL) throws -> String) throws -> String {
        var runs: [Kind: [Run]] = [:]
        let kinds = Kind.allCases
        for kind in kinds { _ = try timedRun(kind) }
        for round in 0..<rounds {
            for offset in 0..<kinds.count {
                let kind = kinds[(round + offset) % kinds.count]
                runs[kind, default: []].append(try timedRun(kind))
            }
        }
        func ms(_ kind: Kind) -> String {
            fixedDecimals(Measurement.median(runs[kind, default: []].map(\.seconds)) * 1000) + " ms"
        }
        var peaks: [Kind: Int] = [:]
        for kind in kinds {
            let fields = try child(kind, template).split(separator: " ")
            guard fields.count == 2, let growth = Int(fields[1]) else {
                throw RawSQLite.Failure(description: "W15 \(kind.rawValue): the child process reported no result")
            }
            peaks[kind] = growth
        }
        func mib(_ kind: Kind) -> String { fixedDecimals(Double(peaks[kind] ?? 0) / 1_048_576) + " MiB" }
        let peakRatio = fixedDecimals(Double(peaks[.ours] ?? 0) / Double(max(peaks[.raw] ?? 0, 1)), digits: 2)
        func ratio(_ kind: Kind, _ value: (Run) -> Double) -> String {
            let ours = runs[.ours, default: []], theirs = runs[kind, default: []]
            let ratios = zip(ours, theirs).map { pair in value(pair.1) > 0 ? value(pair.0) / value(pair.1) : 0 }
            return fixedDecimals(Measurement.median(ratios), digits: 2)
        }
        return "\(Self.id) migrate \(label) (Item: attribute added with a default, attribute renamed): "
            + "ours \(ms(.ours)), peak +\(mib(.ours)), raw \(ms(.raw)), peak +\(mib(.raw)), "
            + "raw in place \(ms(.rawInPlace)), peak +\(mib(.rawInPlace)), "
            + "ours/raw \(ratio(.raw, \.seconds)), peak ours/raw \(peakRatio), "
            + "ours/raw in place \(ratio(.rawInPlace, \.seconds)) "
            + "[ours: StoreMigration.migrateStore(at:from:to:), a new store beside the original, one INSERT … SELECT per table, "
            + "swapped in; raw: the same by hand; raw in place: ALTER TABLE RENAME COLUMN + ADD COLUMN + UPDATE; every result checked]"
    }

    private func timedRun(_ kind: Kind) throws -> Run {
        let url = fixture.folder.appendingPathComponent("migration-\(kind.rawValue).sqlite")
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        try FileManager.default.copyItem(at: template, to: url)
        let source = fixture.model
        let destination = destination
        Measurement.resetPeakResidentSize()
        let baseline = Measurement.residentSize()?.current ?? 0
        let seconds = try Measurement.seconds {
            switch kind {
            case .ours:
                try StoreMigration.migrateStore(at: url, from: source, to: destination)
            case .raw:
                try migrateByCopy(path: url.path)
            case .rawInPlace:
                try migrateInPlace(path: url.path)
            }
        }
        let peak = Measurement.residentSize()?.peak ?? 0
        try check(url, kind)
        return Run(seconds: seconds, peakGrowth: max(0, peak - baseline))
    }

    // MARK: The hand-written migrations

    /// The new metadata plist: the source's, with the destination's version keys.
    private func migratedPlist(_ db: OpaquePointer, schema: String) throws -> Data {
        var handle: OpaquePointer?
        guard sqlite3_prepare_v2(db, "SELECT Z_PLIST FROM \(schema).Z_METADATA WHERE Z_VERSION = 1", -1, &handle, nil) == SQLITE_OK,
            let statement = handle
        else { throw RawSQLite.Failure(description: "no metadata") }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW, let bytes = sqlite3_column_blob(statement, 0) else {
            throw RawSQLite.Failure(description: "no metadata")
        }
        let data = Data(bytes: bytes, count: Int(sqlite3_column_bytes(statement, 0)))
        var plist = (try PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any] ?? [:]
        plist.merge(freshVersionKeys) { _, new in new }
        return try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
    }

    /// A new file beside the store with the destination's tables, filled from the store in one
    /// transaction, synced and renamed over it.
    private func migrateByCopy(path: String) throws {
        let temporary = path + ".raw-migrating"
        for suffix in ["", "-journal"] { unlink(temporary + suffix) }
        do {
            // Fold the WAL in and leave WAL mode, which fails if another connection has the store open.
            let original = try RawSQLite(path: path)
            try original.exec("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE")
        }
        var handle: OpaquePointer?
        guard sqlite3_open_v2(temporary, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
            let db = handle
        else {
            sqlite3_close_v2(handle)
            throw RawSQLite.Failure(description: "cannot create \(temporary)")
        }
        defer { sqlite3_close_v2(db) }
        func exec(_ sql: String) throws {
            guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
                throw RawSQLite.Failure(description: "\(String(cString: sqlite3_errmsg(db))) in \(sql)")
            }
        }
        func run(_ sql: String, _ bind: (OpaquePointer) -> Void = { _ in }) throws {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
                throw RawSQLite.Failure(description: "\(String(cString: sqlite3_errmsg(db))) in \(sql)")
            }
            defer { sqlite3_finalize(statement) }
            bind(statement)
            guard sqlite3_step(statement) == SQLITE_DONE else {
                throw RawSQLite.Failure(description: "\(String(cString: sqlite3_errmsg(db))) in \(sql)")
            }
        }
        // Core Data's layout: incremental auto-vacuum, chosen before the first table exists.
        try exec("PRAGMA synchronous = FULL; PRAGMA auto_vacuum = INCREMENTAL")
        try run("ATTACH DATABASE ? AS old") { $0.bindText(path, at: 1) }
        try exec("BEGIN EXCLUSIVE")
        for sql in freshDDL { try exec(sql) }
        try exec("INSERT INTO ZCATEGORY (Z_PK, Z_ENT, Z_OPT, ZNAME) SELECT Z_PK, Z_ENT, Z_OPT, ZNAME FROM old.ZCATEGORY")
        try run(
            "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZACTIVE, ZCODE, ZCREATEDAT, ZNAME, ZPRICE, ZQUANTITY, ZRANK, ZSCORE, ZSTOCK, ZCATEGORY)"
                + " SELECT Z_PK, Z_ENT, Z_OPT, ZACTIVE, ZCODE, ZCREATEDAT, ZTITLE, ZPRICE, ZQUANTITY, ZRANK, ZSCORE, ?, ZCATEGORY FROM old.ZITEM"
        ) { sqlite3_bind_int64($0, 1, 5) }
        try exec("INSERT INTO ZPART (Z_PK, Z_ENT, Z_OPT, ZKIND, ZNAME, ZITEM) SELECT Z_PK, Z_ENT, Z_OPT, ZKIND, ZNAME, ZITEM FROM old.ZPART")
        try exec("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM old.Z_PRIMARYKEY")
        let uuid: String
        do {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(db, "SELECT Z_UUID FROM old.Z_METADATA WHERE Z_VERSION = 1", -1, &statement, nil) == SQLITE_OK,
                let statement, sqlite3_step(statement) == SQLITE_ROW
            else { throw RawSQLite.Failure(description: "no metadata") }
            uuid = statement.text(0)
            sqlite3_finalize(statement)
        }
        let plist = try migratedPlist(db, schema: "old")
        try run("INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)") { statement in
            statement.bindText(uuid, at: 1)
            _ = plist.withUnsafeBytes { sqlite3_bind_blob(statement, 2, $0.baseAddress, Int32($0.count), rawTransient) }
        }
        if let cache = freshModelCache {
            try run("INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)") { statement in
                _ = cache.withUnsafeBytes { sqlite3_bind_blob(statement, 1, $0.baseAddress, Int32($0.count), rawTransient) }
            }
        }
        try exec("COMMIT")
        try exec("DETACH DATABASE old")
        try exec("PRAGMA journal_mode = WAL")
        let descriptor = open(temporary, O_RDWR)
        guard descriptor >= 0, fsync(descriptor) == 0 else { throw RawSQLite.Failure(description: "cannot sync \(temporary)") }
        close(descriptor)
        guard rename(temporary, path) == 0 else { throw RawSQLite.Failure(description: "cannot rename \(temporary)") }
        let folder = open((path as NSString).deletingLastPathComponent, O_RDONLY)
        if folder >= 0 {
            _ = fsync(folder)
            close(folder)
        }
    }

    /// `ALTER TABLE` on the store itself, in one transaction.
    private func migrateInPlace(path: String) throws {
        let db = try RawSQLite(path: path)
        try db.exec("BEGIN IMMEDIATE")
        try db.exec("ALTER TABLE ZITEM RENAME COLUMN ZTITLE TO ZNAME")
        try db.exec("ALTER TABLE ZITEM ADD COLUMN ZSTOCK INTEGER")
        let fill = try db.prepare("UPDATE ZITEM SET ZSTOCK = ?")
        sqlite3_bind_int64(fill.handle, 1, 5)
        try db.check(sqlite3_step(fill.handle))
        let plist = try migratedPlist(db.db, schema: "main")
        let metadata = try db.prepare("UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = 1")
        _ = plist.withUnsafeBytes { sqlite3_bind_blob(metadata.handle, 1, $0.baseAddress, Int32($0.count), rawTransient) }
        try db.check(sqlite3_step(metadata.handle))
        if let freshModelCache {
            let cache = try db.prepare("UPDATE Z_MODELCACHE SET Z_CONTENT = ?")
            _ = freshModelCache.withUnsafeBytes { sqlite3_bind_blob(cache.handle, 1, $0.baseAddress, Int32($0.count), rawTransient) }
            try db.check(sqlite3_step(cache.handle))
        }
        try db.exec("COMMIT")
    }

    // MARK: Checking a result

    private func check(_ url: URL, _ kind: Kind) throws {
        func fail(_ what: String) -> RawSQLite.Failure {
            RawSQLite.Failure(description: "W15 \(kind.rawValue): the migrated store \(what)")
        }
        let db = try RawSQLite(path: url.path)
        let count = try Self.strings(db, "SELECT COUNT(*) FROM ZITEM").first
        guard count == String(rows) else { throw fail("has \(count ?? "no") items, not \(rows)") }
        let names = try db.prepare("SELECT ZNAME FROM ZITEM ORDER BY Z_PK")
        var checksum = Checksum()
        while sqlite3_step(names.handle) == SQLITE_ROW { checksum.add(names.handle.text(0)) }
        guard checksum.value == expectedTitleChecksum else { throw fail("has other names than the items' former titles") }
        let stocked = try Self.strings(db, "SELECT COUNT(*) FROM ZITEM WHERE ZSTOCK = 5").first
        guard stocked == String(rows) else { throw fail("has \(stocked ?? "no") items with stock 5, not \(rows)") }
        let plist = try Self.plist(db)
        guard let hashes = plist["NSStoreModelVersionHashes"] as? [String: Data],
            hashes == ModelVersionHashes(model: destination).entityHashes
        else { throw fail("does not have the new model's version hashes") }
        guard try Self.strings(db, "SELECT Z_UUID FROM Z_METADATA").first == templateUUID else { throw fail("lost its UUID") }
        guard try Self.primaryKeys(db) == expectedPrimaryKeys else { throw fail("has other Z_PRIMARYKEY rows") }
        // (A store without Z_MODELCACHE has another set of tables, which the column check finds.)
        if let freshModelCache, try Self.blob(db, "SELECT Z_CONTENT FROM Z_MODELCACHE") != freshModelCache {
            throw fail("carries another model than a fresh store's")
        }
        guard try Self.columns(db) == expectedColumns else { throw fail("has other columns than a fresh store") }
        guard try Self.indexes(db) == expectedIndexes else { throw fail("has other indexes than a fresh store") }
        let settings = try Self.settings(db)
        guard settings == expectedSettings else { throw fail("has settings \(settings), a fresh store \(expectedSettings)") }
    }

    private static func strings(_ db: RawSQLite, _ sql: String) throws -> [String] {
        let statement = try db.prepare(sql)
        var result: [String] = []
        while sqlite3_step(statement.handle) == SQLITE_ROW { result.append(statement.handle.text(0)) }
        return result
    }

    private static func blob(_ db: RawSQLite, _ sql: String) throws -> Data {
        let statement = try db.prepare(sql)
        guard sqlite3_step(statement.handle) == SQLITE_ROW, let bytes = sqlite3_column_blob(statement.handle, 0) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(statement.handle, 0)))
    }

    private static func plist(_ db: RawSQLite) throws -> [String: Any] {
        let data = try blob(db, "SELECT Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1")
        return (try PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any] ?? [:]
    }

    /// Every table's columns as `table.column type` (column order aside: Core Data appends added columns).
    private static func columns(_ db: RawSQLite) throws -> Set<String> {
        Set(
            try strings(
                db,
                "SELECT m.name || '.' || p.name || ' ' || p.type FROM sqlite_master AS m, pragma_table_info(m.name) AS p"
                    + " WHERE m.type = 'table'"))
    }

    private static func indexes(_ db: RawSQLite) throws -> Set<String> {
        Set(try strings(db, "SELECT tbl_name || '.' || name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"))
    }

    private static func settings(_ db: RawSQLite) throws -> [String] {
        try ["auto_vacuum", "page_size", "journal_mode"].map { try strings(db, "PRAGMA \($0)").first ?? "" }
    }

    private static func primaryKeys(_ db: RawSQLite) throws -> [String] {
        try strings(db, "SELECT Z_ENT || ' ' || Z_NAME || ' ' || Z_SUPER || ' ' || Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
    }
}

/// FNV-1a over strings (with a separator), for the renamed column's values.
struct Checksum {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ text: String) {
        for byte in text.utf8 { mix(byte) }
        mix(0)
    }

    private mutating func mix(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
}
