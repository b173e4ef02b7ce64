import CDQIModel
import CDQIStore
import CDQITestSupport
import Foundation
import Testing

/// Decoding the model a store carries (`Z_MODELCACHE`) and opening stores with it alone.
@Suite("Z_MODELCACHE decoding")
struct ModelCacheTests {
    @Test("bytes that are not raw DEFLATE are refused by name")
    func garbage() {
        // 0xFF: BFINAL 1, BTYPE 11, a reserved block type: not DEFLATE.
        #expect(throws: ModelCacheError.self) { try ManagedObjectModel(modelCache: [0xFF, 0x00, 0x13]) }
        do {
            _ = try ManagedObjectModel(modelCache: [0xFF, 0x00, 0x13])
        } catch {
            guard case .notCompressed = error else {
                Issue.record("expected notCompressed, got \(error)")
                return
            }
        }
    }

    @Test("a stored DEFLATE block holding text that is not a property list is refused")
    func notAnArchive() {
        // A final stored block (BFINAL 1, BTYPE 00): LEN 5, NLEN ~5, then "hello".
        let blob: [UInt8] = [0x01, 0x05, 0x00, 0xFA, 0xFF] + Array("hello".utf8)
        do {
            _ = try ManagedObjectModel(modelCache: blob)
            Issue.record("'hello' decoded as a model")
        } catch {
            guard case .notAModelArchive = error else {
                Issue.record("expected notAModelArchive, got \(error)")
                return
            }
        }
    }

    @Test("a store whose Z_MODELCACHE row is gone carries no model, and says so")
    func storeWithoutCache() throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = folder.appendingPathComponent("Company.sqlite")
        _ = try SQLiteStore(model: try StoreTestSupport.fixtureModel("Company"), url: url)
        try SQLiteConnection(path: url.path).execute("DELETE FROM Z_MODELCACHE")
        #expect(!ManagedObjectModel.storeCarriesModel(at: url))
        #expect(throws: MigrationError.noModelCache(store: url.path)) { try ManagedObjectModel(storeModelCacheAt: url) }
    }
}

/// Every corpus store that carries a model opens with it alone and reads every entity's rows.
@Suite("Z_MODELCACHE, corpus", .enabled(if: StoreTestSupport.corpus != nil, StoreTestSupport.corpusAbsent))
struct CorpusModelCacheTests {
    /// The 11 stores with a cache and their entity counts (`z-modelcache.md` §0).
    static let stores: [(name: String, entities: Int)] = [
        ("alemar11__CoreDataPlus__SampleModel_V1.sqlite", 4),
        ("alemar11__CoreDataPlus__SampleModel_V2.sqlite", 4),
        ("alemar11__CoreDataPlus__SampleModel3_V1.sqlite", 1),
        ("alemar11__CoreDataPlus__SampleModel2_V2.sqlite", 6),
        ("bignerdranch__CoreDataStack__TestModel.sqlite", 2),
        ("carekit-apple__CareKit__SampleStore2.0.sqlite", 11),
        ("duckduckgo__BrowserServicesKit__Bookmarks_V5.sqlite", 1),
        ("duckduckgo__BrowserServicesKit__SyncMetadata_V3.sqlite", 2),
        ("richardpiazza__XCServerCoreData__XCServerCoreData_1.2.0.sqlite", 23),
        ("log2timeline__plaso__Accounts3.sqlite", 7),
        ("log2timeline__plaso__NoteStore.sqlite", 18),
    ]

    @Test("the store opens with its cached model and every entity's rows are read", arguments: 0..<stores.count)
    func opensAndReads(index: Int) throws {
        let item = Self.stores[index]
        let corpus = try #require(StoreTestSupport.corpus)
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = try CorpusStoreCopy.copy(named: item.name, from: corpus.appendingPathComponent("stores"), into: folder)
        #expect(ManagedObjectModel.storeCarriesModel(at: url))
        let model = try ManagedObjectModel(storeModelCacheAt: url)
        #expect(model.entities.count == item.entities)
        #expect(try StoreMetadata.read(from: url).isCompatible(with: model))

        let container = try PersistentContainer(storeWithCachedModelAt: url)
        let direct = try SQLiteConnection(path: url.path, mode: .readOnly)
        for entity in container.coordinator.model.entities {
            let objects = try container.viewContext.fetch(FetchRequest(entityName: entity.name, includesSubentities: false))
            for object in objects {
                for attribute in entity.attributes where !attribute.isTransient {
                    _ = try object.storedValue(forKey: attribute.name)
                }
            }
            // Independently: the rows of the table carrying the entity's number in Z_PRIMARYKEY.
            // (Core Data leaves Z_NAME stale when it renames an entity: SampleModel V2's LuxuryCar.)
            let number = try direct.prepareUncached("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME IN (?, ?)")
            try number.bind(entity.name, at: 1)
            try number.bind(entity.renamingIdentifier ?? entity.name, at: 2)
            #expect(try number.step(), "\(entity.name) has a Z_PRIMARYKEY row")
            let mapping = try #require(try SQLiteStore(model: model, url: nil).schema.entity(named: entity.name))
            let count = try direct.prepareUncached("SELECT COUNT(*) FROM \(mapping.tableName) WHERE Z_ENT = ?")
            try count.bind(number.int64(0), at: 1)
            #expect(try count.step())
            #expect(objects.count == Int(count.int64(0)), "\(entity.name)")
        }
    }

    @Test("CoreDataPlus SampleModel V1: the cached model's Car holds 125 objects (115 Car, 5 SportCar, 5 ExpensiveSportCar) and Person 20")
    func sampleModelCounts() throws {
        let corpus = try #require(StoreTestSupport.corpus)
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = try CorpusStoreCopy.copy(
            named: "alemar11__CoreDataPlus__SampleModel_V1.sqlite", from: corpus.appendingPathComponent("stores"), into: folder)
        let container = try PersistentContainer(storeWithCachedModelAt: url)
        let context = container.viewContext
        #expect(try context.count(for: FetchRequest(entityName: "Car")) == 125)
        #expect(try context.count(for: FetchRequest(entityName: "Car", includesSubentities: false)) == 115)
        #expect(try context.count(for: FetchRequest(entityName: "SportCar", includesSubentities: false)) == 5)
        #expect(try context.count(for: FetchRequest(entityName: "ExpensiveSportCar")) == 5)
        #expect(try context.count(for: FetchRequest(entityName: "Person")) == 20)
        let sportCar = try #require(container.coordinator.model.entity(named: "SportCar"))
        #expect(sportCar.parentEntityName == "Car")
        #expect(sportCar.attributes.isEmpty)  // inherited properties are the parent's, not repeated
    }

    @Test("CoreDataPlus SampleModel V2: the cache keeps the renaming identifier of LuxuryCar")
    func renamingIdentifier() throws {
        let corpus = try #require(StoreTestSupport.corpus)
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = try CorpusStoreCopy.copy(
            named: "alemar11__CoreDataPlus__SampleModel_V2.sqlite", from: corpus.appendingPathComponent("stores"), into: folder)
        let model = try ManagedObjectModel(storeModelCacheAt: url)
        #expect(model.entity(named: "LuxuryCar")?.renamingIdentifier == "ExpensiveSportCar")
        #expect(model.entity(named: "Car")?.renamingIdentifier == nil)
        #expect(model.versionIdentifier == "2")
    }
}
