import CDQIModel
import CDQIStore
import CoreDataQueryInterface
import Foundation
import Testing

/// Issue 18 item 7: code `cdqi` generated for the current version of `Fixtures/Shop.xcdatamodeld`
/// (`GeneratedShop/`, a byte-for-byte copy that `VersionedClassesGenerateTests` checks) opens a store
/// version 1 wrote, migrated: `Client.name` became `fullName`, `Purchase.note` became `comment`
/// (renaming identifiers), `Client.loyaltyPoints` (default 100) and `Purchase.status` (default
/// "placed") are new. `ShopModel` carries version 1 (`VersionedGeneratedModel`), so the migration
/// needs no bundle; `migratingWith:` a bundle keeps working.
@Suite struct VersionedClassesMigrationTests {
    static let bundleURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Shop.xcdatamodeld")

    /// A store written with version 1 (by name, through key-value coding): Ada with purchases 1
    /// (12.5, "gift wrap") and 2 (7.25, no note), Alan with purchase 3 (100.0, "express").
    static func versionOneStore() throws -> (folder: URL, store: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-versioned-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = folder.appendingPathComponent("Shop.sqlite")
        let bundle = try LoadedBundle(url: bundleURL)
        let versionOne = try #require(bundle.version(named: "Shop")).model
        let container = try PersistentContainer(model: versionOne, url: store)
        let context = container.newContext()
        let purchases: [(client: String, number: Int32, total: Double, note: String?)] = [
            ("Ada Lovelace", 1, 12.5, "gift wrap"), ("Ada Lovelace", 2, 7.25, nil), ("Alan Turing", 3, 100.0, "express"),
        ]
        var clients: [String: ManagedObject] = [:]
        for name in ["Ada Lovelace", "Alan Turing"] {
            let client = try context.insertNewObject(forEntityName: "Client")
            try client.setValue(name, forKey: "name")
            clients[name] = client
        }
        for purchase in purchases {
            let object = try context.insertNewObject(forEntityName: "Purchase")
            try object.setValue(purchase.number, forKey: "number")
            try object.setValue(purchase.total, forKey: "total")
            try object.setValue(purchase.note, forKey: "note")
            try object.setValue(clients[purchase.client], forKey: "client")
        }
        _ = try context.save()
        return (folder, store)
    }

    /// The values version 1's store holds, read through the generated classes of version 2.
    static func expectMigratedValues(in container: PersistentContainer) throws {
        #expect(container.coordinator.model == ShopModel.model)
        let context = container.newContext()
        let clients = try context.from(Client.self).order { $0.fullName }.all()
        #expect(clients.map(\.fullName) == ["Ada Lovelace", "Alan Turing"])
        #expect(clients.map(\.loyaltyPoints) == [100, 100])
        #expect(clients.map { $0.purchases.map(\.number).sorted() } == [[1, 2], [3]])
        let purchases = try context.from(Purchase.self).order { $0.number }.all()
        #expect(purchases.map(\.number) == [1, 2, 3])
        #expect(purchases.map(\.comment) == ["gift wrap", nil, "express"])
        #expect(purchases.map(\.status) == ["placed", "placed", "placed"])
        #expect(purchases.map(\.total) == [12.5, 7.25, 100.0])
        #expect(purchases.map { $0.client?.fullName } == ["Ada Lovelace", "Ada Lovelace", "Alan Turing"])
    }

    @Test func theGeneratedModelCarriesBothVersionsAndMigratesWithNoBundle() throws {
        #expect(ShopModel.versions.map(\.versionName) == ["Shop", "Shop 2"])
        #expect(ShopModel.versions.last == ShopModel.model)
        let (folder, store) = try Self.versionOneStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The model alone refuses the old store, as Core Data does with migration off.
        #expect(throws: StoreError.self) { try PersistentContainer(model: ShopModel.model, url: store) }

        let plan = try ShopModel.migrationPlan(forStoreAt: store)
        #expect(plan.sourceVersion == "Shop")
        #expect(plan.destinationVersion == "Shop 2")
        #expect(plan.steps.count == 1)
        // No bundle is read: the versions are the generated code's.
        let container = try PersistentContainer(model: ShopModel.self, url: store)
        try Self.expectMigratedValues(in: container)
        #expect(try StoreMetadata.read(from: store).isCompatible(with: ShopModel.model))
        // Opened again, the store is of the current version: nothing to migrate.
        #expect(try ShopModel.migrateStore(at: store).wasAlreadyCompatible)
        _ = try PersistentContainer(model: ShopModel.self, url: store)
    }

    @Test func theCarriedVersionsEqualTheBundles() throws {
        let bundle = try LoadedBundle(url: Self.bundleURL)
        #expect(ShopModel.versions == bundle.versions.map(\.model))
    }

    @Test func migrateStoreReportsProgressAndTheChanges() throws {
        let (folder, store) = try Self.versionOneStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        var progress: [Int] = []
        let report = try ShopModel.migrateStore(at: store) { done, _ in progress.append(done) }
        // Two entities, no join table: copied one after the other.
        #expect(progress == [1, 2])
        #expect(report.objectCount == 5)
        #expect(
            Set(report.changes.map(\.description)).isSuperset(of: [
                "rename attribute Client.name → fullName", "rename attribute Purchase.note → comment",
            ]))
        try Self.expectMigratedValues(in: try PersistentContainer(model: ShopModel.self, url: store))
    }

    /// A store of a model that is no version of Shop: `Invoice` (`amount` Double).
    @Test func aStoreOfAnotherModelIsRefusedAndLeftAsItWas() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-versioned-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("Invoices.sqlite")
        var invoice = EntityDescription(name: "Invoice")
        invoice.attributes.append(AttributeDescription(name: "amount", type: .double, isOptional: true))
        do {
            let container = try PersistentContainer(model: ManagedObjectModel(entities: [invoice]), url: store)
            try container.viewContext.insertNewObject(forEntityName: "Invoice").setValue(9.5, forKey: "amount")
            _ = try container.viewContext.save()
        }
        let before = try Data(contentsOf: store)
        #expect {
            try PersistentContainer(model: ShopModel.self, url: store)
        } throws: { error in
            guard case MigrationError.noMatchingVersion(let path, let name, _, _) = error else { return false }
            return path == store.path && name == "ShopModel" && "\(error)".contains("no version of ShopModel wrote this store")
        }
        #expect(try Data(contentsOf: store) == before)
    }

    /// A store of a version newer than the generated code (the app was downgraded): version 2 with one
    /// more attribute, `Client.email`.
    @Test func aStoreOfANewerVersionIsRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-versioned-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("Newer.sqlite")
        var newer = ShopModel.model
        let index = try #require(newer.entities.firstIndex { $0.name == "Client" })
        newer.entities[index].attributes.append(AttributeDescription(name: "email", type: .string, isOptional: true))
        newer.versionName = "Shop 3"
        _ = try PersistentContainer(model: newer, url: store)
        let before = try Data(contentsOf: store)
        // The store carries "Shop 3", but migrating from it to "Shop 2" would drop `email`: refused.
        #expect {
            try PersistentContainer(model: ShopModel.self, url: store)
        } throws: { error in
            guard case MigrationError.noMatchingVersion(_, "ShopModel", let nearest, let differences) = error else { return false }
            return nearest == "Shop 2" && differences.count == 1 && differences[0].contains("Client")
        }
        #expect(try Data(contentsOf: store) == before)
    }

    @Test func generatedCodeForTheCurrentVersionOpensAVersionOneStoreMigratedWithTheBundle() throws {
        let (folder, store) = try Self.versionOneStore()
        defer { try? FileManager.default.removeItem(at: folder) }

        let bundle = try LoadedBundle(url: Self.bundleURL)
        var progress: [Int] = []
        let container = try PersistentContainer(model: ShopModel.self, url: store, migratingWith: bundle) { done, _ in
            progress.append(done)
        }
        #expect(!progress.isEmpty)
        try Self.expectMigratedValues(in: container)
        let context = container.newContext()
        // The generated proxies query the new names: Ada's purchases total 12.5 + 7.25.
        let adas = try context.from(Purchase.self).filter { $0.client.fullName == "Ada Lovelace" && $0.status == "placed" }.all()
        #expect(adas.map(\.total).reduce(0, +) == 19.75)
        #expect(try context.from(Purchase.self).filter { $0.comment == nil }.count() == 1)

        // The migrated store is of the current version: it opens again with no migration.
        let metadata = try StoreMetadata.read(from: store)
        #expect(metadata.isCompatible(with: ShopModel.model))
        #expect(try bundle.migrationPlan(forStoreAt: store).isAlreadyCompatible)
    }

    @Test func aNewStoreIsCreatedWithTheGeneratedModel() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-versioned-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("New.sqlite")
        let container = try PersistentContainer(model: ShopModel.self, url: store, migratingWith: try LoadedBundle(url: Self.bundleURL))
        let context = container.newContext()
        let client = try context.insert(Client.self)
        client.fullName = "Grace Hopper"
        _ = try context.save()
        #expect(try context.from(Client.self).all().map(\.loyaltyPoints) == [100])
    }

    @Test func generatedCodeOfAnotherModelIsRefusedBeforeTheStoreIsTouched() throws {
        let (folder, store) = try Self.versionOneStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try Data(contentsOf: store)
        let library = Self.bundleURL.deletingLastPathComponent().appendingPathComponent("Library.xcdatamodeld")
        #expect {
            try PersistentContainer(model: ShopModel.self, url: store, migratingWith: try LoadedBundle(url: library))
        } throws: { error in
            guard case MigrationError.generatedModelNotInBundle(let generated, let bundle) = error else { return false }
            return generated == "ShopModel" && bundle == "Library.xcdatamodeld" && "\(error)".contains("run cdqi generate again")
        }
        #expect(try Data(contentsOf: store) == before)
    }
}
