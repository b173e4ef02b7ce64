import CDQIModel
import CDQIStore
import CDQITestSupport
import Foundation
import Testing

/// Finding the version of a bundle that wrote a store (Core Data's compatibility check: equal entity
/// version hashes) and opening a store of any version of its bundle.
@Suite("Store version matching")
struct VersionMatchTests {
    static let library = StoreTestSupport.packageRoot.appendingPathComponent("Fixtures/Library.xcdatamodeld")

    @Test("natural version order: digit runs by value, a name before its extensions")
    func naturalOrder() {
        #expect(LoadedBundle.naturallyPrecedes("Model 2", "Model 10"))
        #expect(!LoadedBundle.naturallyPrecedes("Model 10", "Model 2"))
        #expect(LoadedBundle.naturallyPrecedes("Model", "Model 2"))
        #expect(LoadedBundle.naturallyPrecedes("XCServerCoreData1.2.0", "XCServerCoreData2.0.0"))
        #expect(LoadedBundle.naturallyPrecedes("XCServerCoreData2.0.1", "XCServerCoreData2.0.10"))
        #expect(!LoadedBundle.naturallyPrecedes("Model", "Model"))
    }

    @Test("the Library fixture's versions, oldest first, and its current version")
    func libraryVersions() throws {
        let bundle = try LoadedBundle(url: Self.library)
        #expect(bundle.versions.map(\.model.versionName) == ["Library", "Library 2"])
        #expect(bundle.current.model.versionName == "Library 2")
        #expect(bundle.version(named: "Library.xcdatamodel")?.model.versionName == "Library")
    }

    @Test("a store created by each Library version is matched to that version and opens with the bundle")
    func matchesFixtureVersions() throws {
        let bundle = try LoadedBundle(url: Self.library)
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        for version in bundle.versions {
            let name = try #require(version.model.versionName)
            let url = folder.appendingPathComponent("\(name).sqlite")
            do {
                let container = try PersistentContainer(model: version.model, url: url)
                let book = try container.viewContext.insertNewObject(forEntityName: "Book")
                try book.setValue("Dune", forKey: "title")
                try book.setValue("0441013597", forKey: "isbn")
                // Version 2 renamed addedAt to createdAt.
                try book.setValue(Date(timeIntervalSinceReferenceDate: 0), forKey: name == "Library" ? "addedAt" : "createdAt")
                try container.viewContext.save()
            }
            let metadata = try StoreMetadata.read(from: url)
            #expect(bundle.versions(matching: metadata).map(\.model.versionName) == [name])
            #expect(bundle.version(matching: metadata)?.model.versionName == name)
            let container = try PersistentContainer(bundle: bundle, url: url)
            #expect(container.coordinator.model.versionName == name)
            #expect(try container.viewContext.count(for: FetchRequest(entityName: "Book")) == 1)
        }
    }

    @Test("a missing store is created with the current version")
    func createsCurrent() throws {
        let bundle = try LoadedBundle(url: Self.library)
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = folder.appendingPathComponent("New.sqlite")
        let container = try PersistentContainer(bundle: bundle, url: url)
        #expect(container.coordinator.model.versionName == "Library 2")
        #expect(bundle.version(matching: try StoreMetadata.read(from: url))?.model.versionName == "Library 2")
    }

    @Test("a store of another model is refused, naming the nearest version and what differs, though it carries its model")
    func noMatch() throws {
        let bundle = try LoadedBundle(url: Self.library)
        let company = try StoreTestSupport.fixtureModel("Company")
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = folder.appendingPathComponent("Company.sqlite")
        _ = try SQLiteStore(model: company, url: url)
        // It carries its model, as every store we create does: that changes nothing here.
        #expect(try ManagedObjectModel(storeModelCacheAt: url).entities.map(\.name).sorted() == ["Department", "Employee", "TestEntity"])
        let before = try Data(contentsOf: url)
        #expect(bundle.version(matching: try StoreMetadata.read(from: url)) == nil)
        do {
            _ = try PersistentContainer(bundle: bundle, url: url)
            Issue.record("a Company store opened with the Library bundle")
        } catch {
            guard case .noMatchingVersion(_, let name, _, let differences) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(name == "Library.xcdatamodeld")
            // Company has Department, Employee, TestEntity; Library 2 has six entities: nine differences.
            #expect(differences.contains("entity 'Employee' is in the store but not in the model"))
            #expect(differences.contains("entity 'Book' is in the model but not in the store"))
            #expect(error.code == 134_130)
        }
        #expect(try Data(contentsOf: url) == before)
    }
}

/// Apple-written corpus stores are matched to the version of their bundle that wrote them
/// (`corpus/stores/SOURCES.md`).
@Suite("Store version matching, corpus", .enabled(if: StoreTestSupport.corpus != nil, StoreTestSupport.corpusAbsent))
struct CorpusVersionMatchTests {
    static let cases: [(store: String, bundle: String, version: String)] = [
        ("alemar11__CoreDataPlus__SampleModel_V1.sqlite", "alemar11__CoreDataPlus__SampleModel", "SampleModel"),
        ("alemar11__CoreDataPlus__SampleModel_V2.sqlite", "alemar11__CoreDataPlus__SampleModel", "SampleModel2"),
        ("duckduckgo__BrowserServicesKit__Bookmarks_V5.sqlite", "duckduckgo__BrowserServicesKit__BookmarksModel", "BookmarksModel 5"),
        ("duckduckgo__BrowserServicesKit__SyncMetadata_V3.sqlite", "duckduckgo__BrowserServicesKit__SyncMetadata", "SyncMetadata 3"),
        ("carekit-apple__CareKit__SampleStore2.0.sqlite", "carekit-apple__CareKit__CareKitStore", "CareKitStore2.0"),
        ("richardpiazza__XCServerCoreData__XCServerCoreData_1.2.0.sqlite", "richardpiazza__XCServerCoreData__XCServerCoreData", "XCServerCoreData1.2.0"),
    ]

    @Test("each store matches the version that wrote it and opens with its bundle", arguments: 0..<cases.count)
    func matches(index: Int) throws {
        let item = Self.cases[index]
        let corpus = try #require(StoreTestSupport.corpus)
        let bundle = try LoadedBundle(url: corpus.appendingPathComponent("models/\(item.bundle).xcdatamodeld"))
        #expect(bundle.versions.count > 1)
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = try CorpusStoreCopy.copy(named: item.store, from: corpus.appendingPathComponent("stores"), into: folder)
        let metadata = try StoreMetadata.read(from: url)
        #expect(bundle.version(matching: metadata)?.model.versionName == item.version)
        let container = try PersistentContainer(bundle: bundle, url: url)
        #expect(container.coordinator.model.versionName == item.version)
    }

    @Test("the DDG bookmarks bundle's six versions in natural order")
    func bundleOrder() throws {
        let corpus = try #require(StoreTestSupport.corpus)
        let bundle = try LoadedBundle(url: corpus.appendingPathComponent("models/duckduckgo__BrowserServicesKit__BookmarksModel.xcdatamodeld"))
        #expect(
            bundle.versions.map(\.model.versionName) == [
                "BookmarksModel", "BookmarksModel 2", "BookmarksModel 3", "BookmarksModel 4", "BookmarksModel 5", "BookmarksModel 6",
            ])
        #expect(bundle.current.model.versionName == "BookmarksModel 6")
    }
}
