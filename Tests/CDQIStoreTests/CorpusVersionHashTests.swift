import CDQIModel
import CDQIStore
import CDQITestSupport
import Foundation
import Testing

/// The version hashes computed from corpus models equal the ones Apple's Core Data stored in the
/// stores those models wrote (`Z_METADATA`), entity by entity, with the digest and checksum.
@Suite("Version hashes against Apple-written stores", .enabled(if: StoreTestSupport.corpus != nil, StoreTestSupport.corpusAbsent))
struct CorpusVersionHashTests {
    struct Pair: Sendable, CustomStringConvertible {
        var store: String
        /// The model folder in corpus/models, with its extension.
        var model: String
        var version: String?
        var description: String { store }

        init(store: String, bundle: String, version: String) {
            self.init(store: store, model: "\(bundle).xcdatamodeld", version: version)
        }

        init(store: String, model: String, version: String?) {
            self.store = store
            self.model = model
            self.version = version
        }

        func loadModel(from corpus: URL) throws -> ManagedObjectModel {
            try ModelLoader().load(url: corpus.appendingPathComponent("models/\(model)"), version: version).model
        }

        /// Runs `body` with a copy of the store (sidecars included; opening the original would change it)
        /// and the model that wrote it (tests using it are enabled only when the corpus is present).
        func withCopiedStore(_ body: (_ store: URL, _ model: ManagedObjectModel) throws -> Void) throws {
            let corpus = try #require(StoreTestSupport.corpus)
            let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
            defer { cleanUp() }
            let path = try CorpusStoreCopy.copy(named: store, from: corpus.appendingPathComponent("stores"), into: folder)
            try body(path, try loadModel(from: corpus))
        }
    }

    /// Stores with the XML model version that wrote them (corpus/stores/SOURCES.md).
    static let pairs: [Pair] = [
        Pair(store: "alemar11__CoreDataPlus__SampleModel3_V1.sqlite", bundle: "alemar11__CoreDataPlus__SampleModel3", version: "SampleModel3"),
        Pair(store: "alemar11__CoreDataPlus__SampleModel_V1.sqlite", bundle: "alemar11__CoreDataPlus__SampleModel", version: "SampleModel"),
        Pair(store: "alemar11__CoreDataPlus__SampleModel_V2.sqlite", bundle: "alemar11__CoreDataPlus__SampleModel", version: "SampleModel2"),
        Pair(
            store: "duckduckgo__BrowserServicesKit__Bookmarks_V5.sqlite", bundle: "duckduckgo__BrowserServicesKit__BookmarksModel", version: "BookmarksModel 5"),
        Pair(
            store: "duckduckgo__BrowserServicesKit__SyncMetadata_V3.sqlite", bundle: "duckduckgo__BrowserServicesKit__SyncMetadata", version: "SyncMetadata 3"),
        Pair(store: "carekit-apple__CareKit__SampleStore2.0.sqlite", bundle: "carekit-apple__CareKit__CareKitStore", version: "CareKitStore2.0"),
        Pair(store: "bignerdranch__CoreDataStack__TestModel.sqlite", bundle: "bignerdranch__CoreDataStack__Sample", version: "TestModel"),
        Pair(
            store: "richardpiazza__XCServerCoreData__XCServerCoreData_1.2.0.sqlite", bundle: "richardpiazza__XCServerCoreData__XCServerCoreData",
            version: "XCServerCoreData1.2.0"),
    ]

    /// Stores written by legacy Xcode 3 models (framework 241 and 419: an older column order, no model cache).
    static let legacyPairs: [Pair] = [
        Pair(store: "magicalpanda__MagicalRecord__Recipes.sqlite", bundle: "magicalpanda__MagicalRecord__Recipes", version: "Recipes"),
        Pair(store: "RestKit__RestKit__RKSeedDatabase.sqlite", model: "RestKit__RestKit__RKTwitterCoreData.xcdatamodel", version: nil),
    ]

    @Test("entity hashes, digest and checksum match the store's metadata", arguments: pairs + legacyPairs)
    func matches(pair: Pair) throws {
        try pair.withCopiedStore { path, model in try check(path, model) }
    }

    private func check(_ path: URL, _ model: ManagedObjectModel) throws {
        let connection = try SQLiteConnection(path: path.path)
        let statement = try connection.prepare("SELECT Z_PLIST FROM Z_METADATA")
        #expect(try statement.step())
        let plist = try PropertyListSerialization.propertyList(from: statement.data(0), format: nil)
        let metadata = try #require(plist as? [String: Any])
        let stored = try #require(metadata["NSStoreModelVersionHashes"] as? [String: Data])

        let computed = ModelVersionHashes(model: model)
        #expect(computed.entitiesWithUncertainHashes.isEmpty)
        #expect(Set(computed.entityHashes.keys) == Set(stored.keys))
        for (entity, hash) in stored {
            #expect(computed.entityHashes[entity] == hash, "entity \(entity)")
        }
        if let digest = metadata["NSStoreModelVersionHashesDigest"] as? String {
            #expect(computed.digest == digest)
        }
        if let checksum = metadata["NSStoreModelVersionChecksumKey"] as? String {
            #expect(computed.checksum == checksum)
        }
    }

    @Test("a different version of the same model does not match")
    func otherVersionDiffers() throws {
        let corpus = try #require(StoreTestSupport.corpus)
        let bundle = corpus.appendingPathComponent("models/bignerdranch__CoreDataStack__Sample.xcdatamodeld")
        let first = ModelVersionHashes(model: try ModelLoader().load(url: bundle, version: "TestModel").model)
        let second = ModelVersionHashes(model: try ModelLoader().load(url: bundle, version: "TestModel 2").model)
        #expect(first.entityHashes != second.entityHashes)
        #expect(first.digest != second.digest)
    }
}
