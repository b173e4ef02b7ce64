import CDQIModel
import CDQIStore
import Foundation
import Testing

/// Creating stores in Core Data's layout, and refusing stores written for another model.
@Suite("SQLite store files")
struct SQLiteStoreTests {
    private func sqlite3(_ path: String, _ sql: String) throws -> String? {
        guard let tool = Self.sqlite3Tool else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = [path, sql]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static let sqlite3Tool = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(
        "a new Company store shows Core Data's tables and columns to the sqlite3 tool",
        .enabled(if: sqlite3Tool != nil, "the sqlite3 command-line tool is not installed"))
    func companyLayout() throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = folder.appendingPathComponent("Company.sqlite")
        let store = try SQLiteStore(model: try StoreTestSupport.fixtureModel("Company"), url: url)
        #expect(try store.rowCount(of: "Employee") == 0)
        #expect(store.schema.entities.map(\.name) == ["Department", "Employee", "TestEntity"])

        let schema = try #require(try sqlite3(url.path, "SELECT sql FROM sqlite_master WHERE name LIKE 'Z%' ORDER BY name"))
        // Expected statements written by hand from the layout rules of coredata-sqlite-format.md.
        #expect(
            schema.components(separatedBy: "\n") == [
                "CREATE TABLE ZDEPARTMENT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZBUDGET DECIMAL, ZNAME VARCHAR )",
                "CREATE TABLE ZEMPLOYEE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSALARY INTEGER, ZDEPARTMENT INTEGER, ZHIREDATE TIMESTAMP, ZFIRSTNAME VARCHAR, ZLASTNAME VARCHAR, ZNICKNAME VARCHAR )",
                "CREATE INDEX ZEMPLOYEE_ZDEPARTMENT_INDEX ON ZEMPLOYEE (ZDEPARTMENT)",
                "CREATE TABLE ZTESTENTITY ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZBOOLEAN INTEGER, ZINTEGER16 INTEGER, ZINTEGER32 INTEGER, ZINTEGER64 INTEGER, ZDATE TIMESTAMP, ZDOUBLE FLOAT, ZFLOAT FLOAT, ZDECIMAL DECIMAL, ZSTRING VARCHAR, ZURI VARCHAR, ZUUID BLOB, ZTRANSFORMABLE BLOB, ZBINARY BLOB )",
                "CREATE INDEX Z_Employee_byLastName ON ZEMPLOYEE (ZLASTNAME COLLATE BINARY ASC)",
                "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
                "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
                "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            ])
        #expect(
            try sqlite3(url.path, "SELECT Z_ENT || ' ' || Z_NAME || ' ' || Z_SUPER || ' ' || Z_MAX FROM Z_PRIMARYKEY")
                == "1 Department 0 0\n2 Employee 0 0\n3 TestEntity 0 0")
        #expect(try sqlite3(url.path, "PRAGMA auto_vacuum") == "2")
        #expect(try sqlite3(url.path, "PRAGMA journal_mode") == "wal")
        #expect(try sqlite3(url.path, "PRAGMA integrity_check") == "ok")
    }

    @Test("inheritance, ordered and many-to-many relationships in the Library store")
    func libraryLayout() throws {
        let store = try SQLiteStore(model: try StoreTestSupport.fixtureModel("Library"), url: nil)
        let schema = store.schema
        #expect(
            schema.entities.map { "\($0.number) \($0.name) \($0.superNumber)" } == [
                "1 Item 0", "2 Book 1", "3 Media 1", "4 Album 3", "5 Shelf 0", "6 Tag 0",
            ])
        #expect(schema.entity(named: "Media")?.numbersIncludingSubentities == [3, 4])
        #expect(
            schema.createStatements.filter { $0.hasPrefix("CREATE TABLE") } == [
                "CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSHELF INTEGER, Z_FOK_SHELF INTEGER, ZTRACKCOUNT INTEGER, ZCREATEDAT TIMESTAMP, ZDURATION FLOAT, ZTITLE VARCHAR, ZISBN VARCHAR )",
                "CREATE TABLE ZSHELF ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZLASTREVIEWEDAT TIMESTAMP, ZNAME VARCHAR )",
                "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
                "CREATE TABLE Z_1TAGS ( Z_1ITEMS INTEGER, Z_6TAGS INTEGER, PRIMARY KEY (Z_1ITEMS, Z_6TAGS) )",
            ])
        #expect(
            Set(schema.createStatements.filter { $0.contains("INDEX") }) == [
                "CREATE INDEX ZITEM_ZSHELF_INDEX ON ZITEM (ZSHELF)",
                "CREATE INDEX Z_1TAGS_Z_6TAGS_INDEX ON Z_1TAGS (Z_6TAGS, Z_1ITEMS)",
                "CREATE INDEX ZITEM_Z_ENT_INDEX ON ZITEM (Z_ENT)",
                "CREATE INDEX Z_Item_byTitle ON ZITEM (ZTITLE COLLATE BINARY ASC)",
                "CREATE INDEX Z_Book_byIsbnAndTitle ON ZITEM (ZISBN COLLATE BINARY ASC, ZTITLE COLLATE BINARY ASC)",
                "CREATE UNIQUE INDEX Z_Book_UNIQUE_isbn ON ZITEM (ZISBN COLLATE BINARY ASC)",
                "CREATE UNIQUE INDEX Z_Tag_UNIQUE_name ON ZTAG (ZNAME COLLATE BINARY ASC)",
            ])
        let album = try #require(schema.entity(named: "Album"))
        #expect(album.columns["shelf"] == PropertyColumns(value: "ZSHELF", order: "Z_FOK_SHELF"))
        #expect(album.columns["tags"]?.joinTable == "Z_1TAGS")
        #expect(album.columns["trackCount"]?.value == "ZTRACKCOUNT")
        #expect(schema.entity(named: "Shelf")?.columns["items"] == PropertyColumns())
        #expect(try store.rowCount(of: "Item") == 0)
    }

    @Test("reopening with the same model keeps the store; another model is refused and the file is untouched")
    func reopenAndRefuse() throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = folder.appendingPathComponent("Company.sqlite")
        let company = try StoreTestSupport.fixtureModel("Company")
        let uuid = try SQLiteStore(model: company, url: url).metadata.uuid
        #expect(try SQLiteStore(model: company, url: url).metadata.uuid == uuid)

        let before = try Data(contentsOf: url)
        do {
            _ = try SQLiteStore(model: try StoreTestSupport.fixtureModel("Developers"), url: url)
            Issue.record("a store for another model was opened")
        } catch let StoreError.modelMismatch(_, differences) {
            #expect(
                differences == [
                    "entity 'Developer' is in the model but not in the store",
                    "entity 'Language' is in the model but not in the store",
                    "entity 'Project' is in the model but not in the store",
                    "entity 'Department' is in the store but not in the model",
                    "entity 'Employee' is in the store but not in the model",
                    "entity 'TestEntity' is in the store but not in the model",
                ])
        }
        var changed = company
        changed.entities[1].attributes[0].isOptional.toggle()  // Employee.firstName
        #expect(
            throws: StoreError.modelMismatch(
                path: url.path,
                differences: [
                    "entity 'Employee' differs: its properties have the same columns; an option changed (optionality, a "
                        + "default, a version hash modifier, a uniqueness constraint, …)"
                ])
        ) {
            try SQLiteStore(model: changed, url: url)
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test("a SQLite file that is not a Core Data store is refused")
    func notACoreDataStore() throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = folder.appendingPathComponent("other.sqlite")
        try SQLiteConnection(path: url.path).execute("CREATE TABLE notes (text TEXT)")
        #expect(
            throws: StoreError.notACoreDataStore(
                path: url.path, reason: "it has no Z_METADATA and Z_PRIMARYKEY tables")
        ) {
            try SQLiteStore(model: try StoreTestSupport.fixtureModel("Company"), url: url)
        }
    }

    @Test(
        "Apple-written corpus stores open with their models, and their rows are counted per entity",
        .enabled(if: StoreTestSupport.corpus != nil, StoreTestSupport.corpusAbsent),
        arguments: CorpusVersionHashTests.pairs + CorpusVersionHashTests.legacyPairs)
    func corpusStoresOpen(pair: CorpusVersionHashTests.Pair) throws {
        try pair.withCopiedStore { path, model in try countRows(pair, path, model) }
    }

    private func countRows(_ pair: CorpusVersionHashTests.Pair, _ path: URL, _ model: ManagedObjectModel) throws {
        let store = try SQLiteStore(model: model, url: path)
        // Each table's row count, taken straight from SQLite, equals the sum of its entities' own counts.
        var total = 0
        for table in store.schema.tables {
            let count = try store.connection.prepareUncached("SELECT COUNT(*) FROM \(table.name)")
            #expect(try count.step())
            let own = try store.schema.entities.filter { $0.tableName == table.name }
                .reduce(0) { $0 + (try store.rowCount(of: $1.name, includingSubentities: false)) }
            #expect(Int(count.int64(0)) == own, "table \(table.name)")
            total += own
        }
        print("\(pair.store): opened; \(store.schema.entities.count) entities, \(total) rows")
    }

    @Test(
        "every entity's rows of the Apple-written corpus stores read back as objects, every attribute",
        .enabled(if: StoreTestSupport.corpus != nil, StoreTestSupport.corpusAbsent),
        arguments: CorpusVersionHashTests.pairs + CorpusVersionHashTests.legacyPairs)
    func corpusRowsAsObjects(pair: CorpusVersionHashTests.Pair) throws {
        try pair.withCopiedStore { path, model in try readObjects(pair, path, model) }
    }

    private func readObjects(_ pair: CorpusVersionHashTests.Pair, _ path: URL, _ model: ManagedObjectModel) throws {
        let context = ManagedObjectContext(coordinator: try PersistentStoreCoordinator(model: model, url: path))
        var objects = 0, values = 0
        for entity in model.entities {
            let fetched = try context.fetch(FetchRequest(entityName: entity.name, includesSubentities: false))
            #expect(fetched.count == (try context.count(for: FetchRequest(entityName: entity.name, includesSubentities: false))))
            for object in fetched {
                #expect(object.entity.name == entity.name)
                for attribute in model.allAttributes(of: entity) where !attribute.isTransient {
                    _ = try object.value(forKey: attribute.name)
                    values += 1
                }
                for relationship in model.allRelationships(of: entity) where !relationship.isTransient {
                    _ = try object.value(forKey: relationship.name)
                    values += 1
                }
            }
            objects += fetched.count
        }
        print("\(pair.store): \(objects) objects read, \(values) property values")
    }
}
