import CDQIStore
import CDQITestSupport
import Foundation
import Testing

@testable import CDQIModel

/// Stores we create and migrate carry their model in `Z_MODELCACHE`, as Apple's Core Data's do, and
/// the encoder agrees with the archives Apple's Core Data wrote.
@Suite("Z_MODELCACHE writing")
struct ModelCacheWriteTests {
    @Test("a store we create carries its model: one row, decoding to a model with the store's version hashes")
    func createdStoreCarriesItsModel() throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = folder.appendingPathComponent("Company.sqlite")
        let model = try StoreTestSupport.fixtureModel("Company")
        _ = try SQLiteStore(model: model, url: url)
        #expect(try MigrationTestSupport.rows("SELECT COUNT(*), COUNT(Z_CONTENT) FROM Z_MODELCACHE", in: url) == [["1", "1"]])
        #expect(ManagedObjectModel.storeCarriesModel(at: url))
        let carried = try ManagedObjectModel(storeModelCacheAt: url)
        #expect(ModelVersionHashes(model: carried).entityHashes == ModelVersionHashes(model: model).entityHashes)
        #expect(Set(carried.entities.map(\.name)) == ["Department", "Employee", "TestEntity"])
    }

    @Test("a store written by a container reopens, and reads its rows, with no model file")
    func containerStoreReopensWithItsCarriedModel() throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = folder.appendingPathComponent("Company.sqlite")
        do {
            let container = try PersistentContainer(model: try StoreTestSupport.fixtureModel("Company"), url: url)
            let context = container.viewContext
            for name in ["Research", "Sales"] {
                let department = try context.insertNewObject(forEntityName: "Department")
                try department.setValue(name, forKey: "name")
            }
            try context.save()
        }
        let reopened = try PersistentContainer(storeWithCachedModelAt: url)
        let departments = try reopened.viewContext.fetch(FetchRequest(entityName: "Department"))
        #expect(try departments.map { try $0.value(forKey: "name") as? String }.sorted { ($0 ?? "") < ($1 ?? "") } == ["Research", "Sales"])
    }

    @Test("a migrated store carries the destination model")
    func migratedStoreCarriesTheDestinationModel() throws {
        try LibraryMigrationTests.withVersion1Store { bundle, _, url in
            let version1 = try #require(bundle.version(named: "Library")).model
            #expect(ModelVersionHashes(model: try ManagedObjectModel(storeModelCacheAt: url)).entityHashes == ModelVersionHashes(model: version1).entityHashes)
            try bundle.migrateStore(at: url)
            let version2 = try #require(bundle.version(named: "Library 2")).model
            let carried = try ManagedObjectModel(storeModelCacheAt: url)
            #expect(ModelVersionHashes(model: carried).entityHashes == ModelVersionHashes(model: version2).entityHashes)
            #expect(carried.entity(named: "Item")?.attribute(named: "createdAt") != nil)
            #expect(try MigrationTestSupport.rows("SELECT COUNT(*) FROM Z_MODELCACHE", in: url) == [["1"]])
        }
    }
}

/// The corpus stores whose `Z_MODELCACHE` Apple's Core Data wrote.
@Suite("Z_MODELCACHE writing, against Apple's archives", .enabled(if: StoreTestSupport.corpus != nil, StoreTestSupport.corpusAbsent))
struct AppleModelCacheWriteTests {
    /// The Apple-written blob of a corpus store.
    static func blob(of name: String) throws -> [UInt8] {
        let corpus = try #require(StoreTestSupport.corpus)
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = try CorpusStoreCopy.copy(named: name, from: corpus.appendingPathComponent("stores"), into: folder)
        let connection = try SQLiteConnection(path: url.path, mode: .readOnly)
        let row = try connection.prepareUncached("SELECT Z_CONTENT FROM Z_MODELCACHE")
        #expect(try row.step())
        return [UInt8](row.data(0))
    }

    @Test(
        "an Apple-written cache decodes, re-encodes, and decodes again to the same model",
        arguments: CorpusModelCacheTests.stores.map(\.name))
    func reencodes(name: String) throws {
        let decoded = try ManagedObjectModel(modelCache: try Self.blob(of: name))
        let again = try ManagedObjectModel(modelCache: try decoded.modelCacheContent())
        #expect(again == decoded)
        // Where they differ, the first differing element, to read.
        for entity in decoded.entities {
            let other = again.entity(named: entity.name)
            guard other != entity else { continue }
            let attribute = entity.attributes.first { $0 != other?.attribute(named: $0.name) }
            let relationship = entity.relationships.first { $0 != other?.relationship(named: $0.name) }
            Issue.record(
                "\(entity.name): \(attribute.map { "\($0) vs \(String(describing: other?.attribute(named: $0.name)))" } ?? "") \(relationship.map { "\($0) vs \(String(describing: other?.relationship(named: $0.name)))" } ?? "")"
            )
            break
        }
        #expect(ModelVersionHashes(model: again).entityHashes == ModelVersionHashes(model: decoded).entityHashes)
    }

    @Test("NoteStore's validation predicate SELF >= 0 reads back as the minimum of ICAccount.serverSideUpdateTaskFailureCount")
    func noteStoreMinimum() throws {
        let model = try ManagedObjectModel(modelCache: try Self.blob(of: "log2timeline__plaso__NoteStore.sqlite"))
        let attribute = model.entity(named: "ICAccount")?.attribute(named: "serverSideUpdateTaskFailureCount")
        #expect(attribute?.type == .integer16)
        #expect(attribute?.minValueString == "0")
        #expect(attribute?.maxValueString == nil)
    }

    @Test(
        "compressing Apple's inflated archive gives Apple's blob byte for byte (Compression's zlib: level 5, raw)",
        arguments: CorpusModelCacheTests.stores.map(\.name))
    func compressesAsApple(name: String) throws {
        let blob = try Self.blob(of: name)
        let archive = try RawDeflate.inflate(blob, limit: 1 << 24)
        #expect(try RawDeflate.deflate(archive) == blob)
    }
}
