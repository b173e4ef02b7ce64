import CDQIModel
import CDQIStore
import Foundation
import Testing

/// Lightweight migration of the Library fixture: version 1 → version 2 renames `addedAt` to `createdAt`
/// (`elementID`), adds the entities Media, Album and Tag (so Shelf's entity number moves from 3 to 5),
/// makes `Shelf.items` ordered, adds `Shelf.lastReviewedAt`, `Item.tags` and a uniqueness constraint.
@Suite("Lightweight migration: Library fixture")
struct LibraryMigrationTests {
    /// A version-1 store: shelf Fiction (Z_PK 1) holding Dune (created at 1000 s), and Emma (2000 s) on no shelf.
    static func makeVersion1Store(in folder: URL, bundle: LoadedBundle) throws -> URL {
        let url = folder.appendingPathComponent("Library.sqlite")
        let model = try #require(bundle.version(named: "Library")).model
        let container = try PersistentContainer(model: model, url: url)
        let context = container.viewContext
        let shelf = try context.insertNewObject(forEntityName: "Shelf")
        try shelf.setValue("Fiction", forKey: "name")
        for (title, isbn, seconds, onShelf) in [("Dune", "0441013597", 1000.0, true), ("Emma", "0141439580", 2000.0, false)] {
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.setValue(title, forKey: "title")
            try book.setValue(isbn, forKey: "isbn")
            try book.setValue(Date(timeIntervalSinceReferenceDate: seconds), forKey: "addedAt")
            if onShelf { try book.setValue(shelf, forKey: "shelf") }
        }
        try context.save()
        return url
    }

    /// Runs `body` with the Library bundle, a new temporary folder and a version-1 store in it
    /// (``makeVersion1Store(in:bundle:)``); the folder is removed afterwards.
    static func withVersion1Store(_ body: (_ bundle: LoadedBundle, _ folder: URL, _ url: URL) throws -> Void) throws {
        let bundle = try LoadedBundle(url: MigrationTestSupport.library)
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        try body(bundle, folder, try makeVersion1Store(in: folder, bundle: bundle))
    }

    @Test("the plan names each change in the model's terms")
    func plan() throws {
        try LibraryMigrationTests.withVersion1Store { bundle, _, url in
            let plan = try bundle.migrationPlan(forStoreAt: url)
            #expect(plan.sourceVersion == "Library")
            #expect(plan.destinationVersion == "Library 2")
            #expect(plan.refusals.isEmpty)
            let text = Set(plan.changes.map(\.description))
            for expected in [
                "add entity Album", "add entity Media", "add entity Tag",
                "rename attribute Item.addedAt → createdAt",
                "add relationship Item.tags",
                "add attribute Shelf.lastReviewedAt",
                "make Shelf.items ordered",
                "change the uniqueness constraints of Book",
            ] {
                #expect(text.contains(expected), "missing: \(expected) in \(text.sorted())")
            }
            #expect(!text.contains { $0.contains("remove") })
        }
    }

    @Test("version 1 → 2: values kept, renamed attribute followed, layout and metadata those of a fresh version-2 store")
    func migrates() throws {
        try LibraryMigrationTests.withVersion1Store { bundle, folder, url in
            let uuid = try StoreMetadata.read(from: url).uuid
            var steps: [Int] = []
            let report = try bundle.migrateStore(at: url) { done, _ in steps.append(done) }
            #expect(!report.wasAlreadyCompatible)
            #expect(report.objectCount == 3)  // one shelf, two books
            #expect(steps == Array(1...steps.count) && !steps.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: url.path + ".cdqi-migrating"))

            let metadata = try StoreMetadata.read(from: url)
            #expect(metadata.uuid == uuid)
            #expect(metadata.isCompatible(with: bundle.current.model))
            #expect(bundle.version(matching: metadata)?.model.versionName == "Library 2")

            // Same tables, columns and indexes as a store created by version 2.
            let fresh = folder.appendingPathComponent("Fresh.sqlite")
            _ = try SQLiteStore(model: bundle.current.model, url: fresh)
            #expect(try MigrationTestSupport.schema(of: url) == MigrationTestSupport.schema(of: fresh))
            // Entity numbers by hand: Item 1, Book 2, Media 3, Album 4, Shelf 5, Tag 6; Z_MAX 2 items, 1 shelf.
            #expect(
                try MigrationTestSupport.rows("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT", in: url) == [
                    ["1", "Item", "0", "2"], ["2", "Book", "1", "0"], ["3", "Media", "1", "0"], ["4", "Album", "3", "0"],
                    ["5", "Shelf", "0", "1"], ["6", "Tag", "0", "0"],
                ])
            #expect(try MigrationTestSupport.rows("SELECT Z_PK, Z_ENT, ZNAME FROM ZSHELF", in: url) == [["1", "5", "Fiction"]])
            #expect(
                try MigrationTestSupport.rows(
                    "SELECT Z_PK, Z_ENT, ZTITLE, ZISBN, CAST(ZCREATEDAT AS INTEGER), IFNULL(ZSHELF, 'none') FROM ZITEM ORDER BY Z_PK", in: url) == [
                        ["1", "2", "Dune", "0441013597", "1000", "1"], ["2", "2", "Emma", "0141439580", "2000", "none"],
                    ])

            // Through the object layer, with the bundle: the current version, the shelf's ordered items.
            let container = try PersistentContainer(bundle: bundle, url: url)
            #expect(container.coordinator.model.versionName == "Library 2")
            let shelves = try container.viewContext.fetch(FetchRequest(entityName: "Shelf"))
            #expect(shelves.count == 1)
            let items = try shelves[0].objects(forKey: "items")
            #expect(try items.map { try $0.value(forKey: "title") as? String } == ["Dune"])
            let books = try container.viewContext.fetch(FetchRequest(entityName: "Book"))
            let created = try books.compactMap { try $0.value(forKey: "createdAt") as? Date }.map(\.timeIntervalSinceReferenceDate).sorted()
            #expect(created == [1000, 2000])
        }
    }

    @Test("a store already at the destination is left byte for byte as it was")
    func alreadyCompatible() throws {
        let bundle = try LoadedBundle(url: MigrationTestSupport.library)
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = folder.appendingPathComponent("Current.sqlite")
        _ = try SQLiteStore(model: bundle.current.model, url: url)
        let before = MigrationTestSupport.bytes(of: url)
        let report = try bundle.migrateStore(at: url)
        #expect(report.wasAlreadyCompatible)
        #expect(MigrationTestSupport.bytes(of: url) == before)
    }

    @Test("migrating back to an older version is refused")
    func backward() throws {
        let bundle = try LoadedBundle(url: MigrationTestSupport.library)
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = folder.appendingPathComponent("Current.sqlite")
        _ = try SQLiteStore(model: bundle.current.model, url: url)
        #expect(throws: MigrationError.backwardMigration(store: url.path, from: "Library 2", to: "Library")) {
            try bundle.migrateStore(at: url, to: "Library")
        }
    }

    @Test("PersistentContainer(bundle:url:migrate:) migrates an old store to the current version and opens it")
    func containerMigrates() throws {
        try LibraryMigrationTests.withVersion1Store { bundle, _, url in
            let container = try PersistentContainer(bundle: bundle, url: url, migrate: true)
            #expect(container.coordinator.model.versionName == "Library 2")
            #expect(try container.viewContext.count(for: FetchRequest(entityName: "Item")) == 2)
        }
    }
}

/// Refusals: nothing is written, and the error names every change.
@Suite("Lightweight migration: refusals")
struct MigrationRefusalTests {
    static func version1(_ bundle: LoadedBundle) throws -> ManagedObjectModel {
        try #require(bundle.version(named: "Library")).model
    }

    @Test("a String attribute turned into an integer is refused by name and the store is unchanged")
    func typeChange() throws {
        try LibraryMigrationTests.withVersion1Store { bundle, _, url in
            let source = try Self.version1(bundle)
            var destination = source
            let book = try #require(destination.entities.firstIndex { $0.name == "Book" })
            destination.entities[book].attributes[0].type = .integer64  // isbn
            destination.versionName = "Broken"
            let before = MigrationTestSupport.bytes(of: url)
            do throws(MigrationError) {
                try StoreMigration.migrateStore(at: url, from: source, to: destination)
                Issue.record("the type change was migrated")
            } catch {
                guard case .notInferable(_, _, let changes) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(
                    changes.map(\.description) == [
                        "change the type of Book.isbn from String to Integer 64: not inferable (only numeric conversions are inferred)"
                    ])
                #expect(error.code == 134_140)
            }
            #expect(MigrationTestSupport.bytes(of: url) == before)
        }
    }

    @Test("a new required attribute without a default is refused when objects exist, leaving the store's content as it was")
    func missingValues() throws {
        try LibraryMigrationTests.withVersion1Store { bundle, _, url in
            let source = try Self.version1(bundle)
            var destination = source
            let shelf = try #require(destination.entities.firstIndex { $0.name == "Shelf" })
            destination.entities[shelf].attributes.append(AttributeDescription(name: "code", type: .string))
            let rowsBefore = try MigrationTestSupport.rows("SELECT * FROM ZITEM ORDER BY Z_PK", in: url)
            let schemaBefore = try MigrationTestSupport.schema(of: url)
            let metadataBefore = try StoreMetadata.read(from: url)
            #expect(
                throws: MigrationError.missingValues(
                    store: url.path, problems: ["1 Shelf object(s) have no value for required code, which has no default"])
            ) {
                try StoreMigration.migrateStore(at: url, from: source, to: destination)
            }
            #expect(try MigrationTestSupport.rows("SELECT * FROM ZITEM ORDER BY Z_PK", in: url) == rowsBefore)
            #expect(try MigrationTestSupport.schema(of: url) == schemaBefore)
            #expect(try StoreMetadata.read(from: url) == metadataBefore)
            #expect(!FileManager.default.fileExists(atPath: url.path + ".cdqi-migrating"))
            // The store still opens with its version.
            _ = try PersistentContainer(model: source, url: url)
        }
    }

    @Test("a required attribute with a default is added and filled with the default")
    func requiredWithDefault() throws {
        try LibraryMigrationTests.withVersion1Store { bundle, _, url in
            let source = try Self.version1(bundle)
            var destination = source
            let shelf = try #require(destination.entities.firstIndex { $0.name == "Shelf" })
            var code = AttributeDescription(name: "capacity", type: .integer32)
            code.defaultValueString = "40"
            destination.entities[shelf].attributes.append(code)
            try StoreMigration.migrateStore(at: url, from: source, to: destination)
            #expect(try MigrationTestSupport.rows("SELECT ZNAME, ZCAPACITY FROM ZSHELF", in: url) == [["Fiction", "40"]])
        }
    }

    @Test("a store another connection holds open is refused as busy")
    func busy() throws {
        try LibraryMigrationTests.withVersion1Store { bundle, _, url in
            let holder = try PersistentContainer(model: try Self.version1(bundle), url: url)
            _ = try holder.viewContext.count(for: FetchRequest(entityName: "Shelf"))
            #expect(throws: MigrationError.storeBusy(store: url.path)) { try bundle.migrateStore(at: url) }
            #expect(try StoreMetadata.read(from: url).isCompatible(with: try Self.version1(bundle)))
        }
    }
}
