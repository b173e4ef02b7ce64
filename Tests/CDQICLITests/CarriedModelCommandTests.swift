import CDQIModel
import CDQIStore
import Foundation
import Testing

/// `cdqi query STORE …` and `cdqi export STORE` with no model argument read the store with the model it
/// carries in `Z_MODELCACHE` (issue 18, item 5), and refuse a store without one.
@Suite struct CarriedModelCommandTests {
    static let corpus = CommandRunner.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    static let corpusPresent = FileManager.default.fileExists(atPath: corpus.path)

    /// Copies a corpus store with its `-wal`/`-shm` sidecars into `folder` and returns the copy's path.
    private func copy(_ name: String, into folder: TemporaryFolder) throws -> String {
        let store = folder.url.appendingPathComponent(name).path
        for suffix in ["", "-wal", "-shm"] {
            let source = Self.corpus.appendingPathComponent("stores/\(name)\(suffix)")
            if FileManager.default.fileExists(atPath: source.path) {
                try FileManager.default.copyItem(atPath: source.path, toPath: store + suffix)
            }
        }
        return store
    }

    @Test(
        "CoreDataPlus SampleModel V1 is queried and exported with no model file",
        .enabled(if: corpusPresent, "../shared/corpus is not present beside this checkout"))
    func queriesWithTheCarriedModel() throws {
        let folder = try TemporaryFolder()
        let store = try copy("alemar11__CoreDataPlus__SampleModel_V1.sqlite", into: folder)
        func run(_ arguments: [String]) throws -> CommandRunner.Output {
            try CommandRunner.run(["query", store] + arguments)
        }
        // Counted with sqlite3 on the original file (as in StoreCommandTests): 125 rows in ZCAR (Car and its
        // two sub-entities), 103 of them with ZMAKER 'FIAT', 20 in ZPERSON; by last name the first two
        // people are Mark Alves and Bishop Boosalis.
        let cars = try run(["--entity", "Car", "--count"])
        #expect(cars.status == 0, "\(cars.standardError)")
        #expect(cars.standardOutput == "125\n")
        #expect(try run(["--entity", "Car", "--count", "--where", "maker == 'FIAT'"]).standardOutput == "103\n")
        let people = try run(["--entity", "Person", "--select", "firstName", "--select", "lastName", "--order", "lastName", "--limit", "2", "--format", "csv"])
        #expect(people.status == 0, "\(people.standardError)")
        #expect(people.standardOutput == "firstName,lastName\r\nMark,Alves\r\nBishop,Boosalis\r\n")

        let export = try CommandRunner.run(["export", store, "--entity", "Person"])
        #expect(export.status == 0, "\(export.standardError)")
        #expect(export.standardOutput.components(separatedBy: "\"_id\": \"Person/").count - 1 == 20)
    }

    /// The 11 corpus stores that carry a model (`z-modelcache.md` §0).
    static let storesWithCache = [
        "alemar11__CoreDataPlus__SampleModel_V1.sqlite",
        "alemar11__CoreDataPlus__SampleModel_V2.sqlite",
        "alemar11__CoreDataPlus__SampleModel3_V1.sqlite",
        "alemar11__CoreDataPlus__SampleModel2_V2.sqlite",
        "bignerdranch__CoreDataStack__TestModel.sqlite",
        "carekit-apple__CareKit__SampleStore2.0.sqlite",
        "duckduckgo__BrowserServicesKit__Bookmarks_V5.sqlite",
        "duckduckgo__BrowserServicesKit__SyncMetadata_V3.sqlite",
        "richardpiazza__XCServerCoreData__XCServerCoreData_1.2.0.sqlite",
        "log2timeline__plaso__Accounts3.sqlite",
        "log2timeline__plaso__NoteStore.sqlite",
    ]

    @Test(
        "every corpus store that carries a model exports every object with no model file",
        .enabled(if: corpusPresent, "../shared/corpus is not present beside this checkout"),
        arguments: storesWithCache)
    func exportsEveryObject(name: String) throws {
        let folder = try TemporaryFolder()
        let store = try copy(name, into: folder)
        let export = try CommandRunner.run(["export", store])
        #expect(export.status == 0, "\(export.standardError)")
        // Independently of any model: every object is one row of a Core Data entity table, a table named
        // Z… with both Z_PK and Z_ENT columns (join tables have neither, Z_PRIMARYKEY no Z_PK; persistent
        // history's tables are named A…).
        let connection = try SQLiteConnection(path: store, mode: .readOnly)
        let tables = try connection.prepareUncached(
            "SELECT m.name FROM sqlite_master AS m WHERE m.type = 'table' AND m.name LIKE 'Z%' AND "
                + "(SELECT COUNT(*) FROM pragma_table_info(m.name) AS c WHERE c.name IN ('Z_PK', 'Z_ENT')) = 2")
        var rows = 0
        while try tables.step() {
            let count = try connection.prepareUncached("SELECT COUNT(*) FROM \"\(tables.string(0))\"")
            #expect(try count.step())
            rows += Int(count.int64(0))
        }
        // (CoreDataStack's TestModel store is empty: 0 rows, an export of empty entity lists.)
        #expect((try? JSONSerialization.jsonObject(with: Data(export.standardOutput.utf8))) is [String: Any])
        #expect(export.standardOutput.components(separatedBy: "{\"_id\": \"").count - 1 == rows)
    }

    @Test("a store without Z_MODELCACHE content (one we wrote, its row deleted) is refused by name, for query and export")
    func refusesAStoreWithoutAModel() throws {
        let folder = try TemporaryFolder()
        let store = try CompanySalesStore.make(in: folder)
        try SQLiteConnection(path: store).execute("DELETE FROM Z_MODELCACHE")
        for arguments in [["query", store, "--entity", "Department"], ["export", store]] {
            let output = try CommandRunner.run(arguments)
            #expect(output.status == 1)
            #expect(output.standardOutput.isEmpty)
            #expect(output.standardError == "cdqi: error: \(store): the store carries no model (no Z_MODELCACHE content); give its model\n")
        }
        // With its model, the same store reads.
        let count = try CommandRunner.run(["query", CompanySalesStore.bundle, store, "--entity", "Department", "--count"])
        #expect(count.standardOutput == "1\n")
    }

    @Test("a store a PersistentContainer wrote is queried with no model file: the model it carries")
    func queriesAStoreWeWrote() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("company.sqlite")
        do {
            let bundle = CommandRunner.packageRoot.appendingPathComponent("Fixtures/Company.xcdatamodeld")
            let container = try PersistentContainer(model: try ModelLoader().load(url: bundle).model, url: url)
            let context = container.viewContext
            for (name, budget) in [("Research", 10), ("Sales", 20)] {
                let department = try context.insertNewObject(forEntityName: "Department")
                try department.setValue(name, forKey: "name")
                try department.setValue(Decimal(budget), forKey: "budget")
            }
            try context.save()
        }
        let output = try CommandRunner.run(["query", url.path, "--entity", "Department", "--select", "name", "--order", "name", "--format", "csv"])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput == "name\r\nResearch\r\nSales\r\n")
    }

    @Test("after cdqi migrate the store is queried with no model file, in the new version's terms")
    func queriesAMigratedStore() throws {
        let folder = try TemporaryFolder()
        let bundle = CommandRunner.packageRoot.appendingPathComponent("Fixtures/Library.xcdatamodeld").path
        let document = folder.url.appendingPathComponent("seed.json")
        try Data(
            #"{"Book": [{"_id": "d", "title": "Dune", "isbn": "0441013597", "addedAt": "2001-01-01T00:16:40Z"}]}"#.utf8
        ).write(to: document)
        let store = folder.url.appendingPathComponent("library.sqlite").path
        #expect(try CommandRunner.run(["import", bundle, store, document.path, "--model-version", "Library"]).status == 0)
        // Version 1 names the attribute addedAt; version 2 renames it createdAt.
        let before = try CommandRunner.run(["query", store, "--entity", "Book", "--select", "title", "--select", "addedAt", "--format", "csv"])
        #expect(before.status == 0, "\(before.standardError)")
        #expect(before.standardOutput == "title,addedAt\r\nDune,2001-01-01T00:16:40Z\r\n")
        #expect(try CommandRunner.run(["migrate", bundle, store]).status == 0)
        let after = try CommandRunner.run(["query", store, "--entity", "Book", "--select", "title", "--select", "createdAt", "--format", "csv"])
        #expect(after.status == 0, "\(after.standardError)")
        #expect(after.standardOutput == "title,createdAt\r\nDune,2001-01-01T00:16:40Z\r\n")
    }

    @Test("with no model: a missing store is named, and --model-version is a usage error")
    func missingStoreAndVersionWithoutModel() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("absent.sqlite").path
        let query = try CommandRunner.run(["query", store, "--entity", "Car"])
        #expect(query.status == 1)
        #expect(query.standardError == "cdqi: error: \(store): no such store (query and export never create one; import does)\n")
        let export = try CommandRunner.run(["export", store])
        #expect(export.status == 1)
        #expect(folder.files().isEmpty)
        for arguments in [["query", store, "--entity", "Car", "--model-version", "V1"], ["export", store, "--model-version", "V1"]] {
            let output = try CommandRunner.run(arguments)
            #expect(output.status == 64)
            #expect(output.standardError.contains("--model-version needs a model bundle"))
        }
        #expect(try CommandRunner.run(["query", "a.xcdatamodeld", "b.sqlite", "c.sqlite", "--entity", "Car"]).status == 64)
    }
}
