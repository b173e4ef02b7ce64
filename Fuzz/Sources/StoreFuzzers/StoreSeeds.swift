// Seed stores for the store target: small valid stores of the fixture models, in WAL and rollback-journal
// mode, and damaged copies of them (the kinds of damage issue 15 found), written at run time so that
// nothing binary is kept in git. Without seeds, the fuzzer starts from empty inputs and almost never
// makes a SQLite header, let alone a Core Data store.
import CDQIModel
import CDQIStore
import Foundation

enum StoreSeeds {
    /// A fixture model of the main package (`Fixtures/<name>.xcdatamodeld`).
    static func fixtureModel(_ name: String) throws -> ManagedObjectModel {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/\(name).xcdatamodeld")
        return try ModelLoader().load(url: url).model
    }

    /// Writes every seed into `folder` (created when missing); returns the names written.
    static func write(into folder: URL) throws -> [String] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-store-seeds-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let company = try fixtureModel("Company")
        var written: [String] = []
        func keep(_ name: String, _ bytes: Data) throws {
            try bytes.write(to: folder.appendingPathComponent("seed-store-\(name)"))
            written.append(name)
        }
        // One filled store per journal mode; every damaged variant starts from a copy of one of them.
        let wal = try filledStore(company, at: work.appendingPathComponent("wal.sqlite"), journalMode: "WAL")
        let journal = try filledStore(company, at: work.appendingPathComponent("journal.sqlite"), journalMode: "DELETE")
        try keep("wal", wal)
        try keep("journal", journal)
        try keep("empty", try emptyStore(company, at: work.appendingPathComponent("empty.sqlite")))
        try keep("other-model", try emptyStore(try fixtureModel("Developers"), at: work.appendingPathComponent("developers.sqlite")))

        // Bytes: cut short, a page zeroed, the header's magic and page size broken.
        try keep("truncated-half", wal.prefix(wal.count / 2))
        try keep("truncated-header", wal.prefix(100))
        try keep("truncated-odd", journal.prefix(journal.count - 300))
        let pageSize = 512
        try keep("zeroed-page-2", replacing(wal, at: pageSize, with: Data(count: pageSize)))
        try keep("zeroed-last-page", replacing(journal, at: journal.count - pageSize, with: Data(count: pageSize)))
        try keep("bad-magic", replacing(wal, at: 0, with: Data("SQLite format 4\u{0}".utf8)))
        try keep("bad-page-size", replacing(wal, at: 16, with: Data([0x01, 0x23])))
        try keep("bad-page-count", replacing(journal, at: 28, with: Data([0x7F, 0xFF, 0xFF, 0xFF])))

        // Core Data's bookkeeping and rows with values no store writes.
        let edits: [(String, String)] = [
            ("z-ent-unknown", "UPDATE ZEMPLOYEE SET Z_ENT = 999 WHERE Z_PK = 1"),
            ("z-ent-null", "UPDATE ZEMPLOYEE SET Z_ENT = NULL WHERE Z_PK = 2"),
            ("z-ent-text", "UPDATE ZEMPLOYEE SET Z_ENT = 'Employee' WHERE Z_PK = 3"),
            ("z-max-largest", "UPDATE Z_PRIMARYKEY SET Z_MAX = 9223372036854775807"),
            ("z-max-text", "UPDATE Z_PRIMARYKEY SET Z_MAX = 'many'"),
            ("z-max-below-keys", "UPDATE Z_PRIMARYKEY SET Z_MAX = 1"),
            ("z-primarykey-empty", "DELETE FROM Z_PRIMARYKEY"),
            ("metadata-plist-garbage", "UPDATE Z_METADATA SET Z_PLIST = X'62706C6973743030DEADBEEF'"),
            ("metadata-plist-null", "UPDATE Z_METADATA SET Z_PLIST = NULL"),
            ("metadata-missing", "DELETE FROM Z_METADATA"),
            ("dangling-to-one", "UPDATE ZEMPLOYEE SET ZDEPARTMENT = 999 WHERE Z_PK = 1"),
            ("wrong-types", "UPDATE ZEMPLOYEE SET ZSALARY = 'high', ZHIREDATE = X'00FF', ZLASTNAME = 42 WHERE Z_PK = 2"),
            ("negative-keys", "UPDATE ZEMPLOYEE SET Z_PK = -5 WHERE Z_PK = 3"),
            ("table-missing", "DROP TABLE ZDEPARTMENT"),
            ("column-missing", "ALTER TABLE ZEMPLOYEE DROP COLUMN ZNICKNAME"),
            ("extra-table", "CREATE TABLE ZSTRANGER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER)"),
        ]
        for (name, sql) in edits {
            for (mode, source) in [("wal", wal), ("journal", journal)] {
                let copy = work.appendingPathComponent("\(name)-\(mode).sqlite")
                try source.write(to: copy)
                do {
                    let connection = try SQLiteConnection(path: copy.path, mode: .readWrite)
                    try connection.execute(sql)
                }
                try keep("\(name)-\(mode)", try Data(contentsOf: copy))
            }
        }
        return written
    }

    /// The file of a Company store holding two departments and four employees (one without a
    /// department), in `journalMode`, with 512-byte pages so that it stays a few kilobytes.
    private static func filledStore(_ model: ManagedObjectModel, at url: URL, journalMode: String) throws -> Data {
        do {
            let context = ManagedObjectContext(coordinator: try PersistentStoreCoordinator(model: model, url: url, readerCount: 0))
            let engineering = try context.insertNewObject(forEntityName: "Department")
            try engineering.setValue("Engineering", forKey: "name")
            let sales = try context.insertNewObject(forEntityName: "Department")
            try sales.setValue("Sales", forKey: "name")
            let people: [(String, String, Int32, ManagedObject?)] = [
                ("Ann", "Lee", 120_000, engineering), ("Bob", "Smith", 95_000, engineering), ("Cy", "Ray", 70_000, sales),
                ("Di", "Fox", 52_000, nil),
            ]
            for (first, last, salary, department) in people {
                let employee = try context.insertNewObject(forEntityName: "Employee")
                try employee.setValue(first, forKey: "firstName")
                try employee.setValue(last, forKey: "lastName")
                try employee.setValue(salary, forKey: "salary")
                try employee.setValue(Date(timeIntervalSinceReferenceDate: 400_000_000), forKey: "hireDate")
                try employee.setValue(department, forKey: "department")
            }
            try context.save()
        }
        return try shrunk(url, journalMode: journalMode)
    }

    /// The file of a new, empty store of `model`.
    private static func emptyStore(_ model: ManagedObjectModel, at url: URL) throws -> Data {
        _ = try PersistentStoreCoordinator(model: model, url: url, readerCount: 0)
        return try shrunk(url, journalMode: "WAL")
    }

    /// Rewrites the (closed) store file with 512-byte pages in `journalMode`, and returns its bytes.
    private static func shrunk(_ url: URL, journalMode: String) throws -> Data {
        do {
            let connection = try SQLiteConnection(path: url.path, mode: .readWrite)
            try connection.execute("PRAGMA journal_mode = DELETE")
            try connection.execute("PRAGMA page_size = 512")
            try connection.execute("VACUUM")
            try connection.execute("PRAGMA journal_mode = \(journalMode)")
        }
        return try Data(contentsOf: url)
    }

    /// `data` with the bytes at `offset` replaced by `bytes` (clipped to the data's end).
    private static func replacing(_ data: Data, at offset: Int, with bytes: Data) -> Data {
        var copy = data
        let start = max(0, min(offset, copy.count))
        let end = min(copy.count, start + bytes.count)
        copy.replaceSubrange(start..<end, with: bytes.prefix(end - start))
        return copy
    }
}

/// libFuzzer calls this before it reads its corpus folders: with `CDQI_FUZZ_STORE_SEEDS=FOLDER`, the
/// store target first writes its seed stores into that folder (bin/soak passes the corpus folder).
@_cdecl("LLVMFuzzerInitialize")
public func storeFuzzerInitialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    guard let folder = ProcessInfo.processInfo.environment["CDQI_FUZZ_STORE_SEEDS"], !folder.isEmpty else { return 0 }
    do {
        let names = try StoreSeeds.write(into: URL(fileURLWithPath: folder))
        FileHandle.standardError.write(Data("store seeds: \(names.count) stores written to \(folder)\n".utf8))
    } catch {
        FileHandle.standardError.write(Data("store seeds: could not be written: \(error)\n".utf8))
        exit(1)
    }
    return 0
}
