import CDQIModel
import CDQIStore
import CDQITestSupport
import Foundation
import Testing

/// Apple's own fixture pair (reference `coredata-migration.md` §6 T1): CoreDataPlus's SampleModel V1
/// store, migrated to SampleModel2, equals the store Apple's Core Data migrated (`SampleModel_V2.sqlite`)
/// row for row, with its hashes, entity numbers and the store's UUID.
@Suite("Lightweight migration: CoreDataPlus fixture chain", .enabled(if: StoreTestSupport.corpus != nil, StoreTestSupport.corpusAbsent))
struct CorpusMigrationTests {
    static func copies() throws -> (v1: URL, v2: URL, bundle: LoadedBundle, cleanUp: () -> Void) {
        let corpus = try #require(StoreTestSupport.corpus)
        let bundle = try LoadedBundle(url: corpus.appendingPathComponent("models/alemar11__CoreDataPlus__SampleModel.xcdatamodeld"))
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        let stores = corpus.appendingPathComponent("stores")
        let v1 = try CorpusStoreCopy.copy(named: "alemar11__CoreDataPlus__SampleModel_V1.sqlite", from: stores, into: folder)
        let v2 = try CorpusStoreCopy.copy(named: "alemar11__CoreDataPlus__SampleModel_V2.sqlite", from: stores, into: folder)
        return (v1, v2, bundle, cleanUp)
    }

    @Test("the plan: Car.color and Person.id removed, ExpensiveSportCar renamed LuxuryCar")
    func plan() throws {
        let (v1, _, bundle, cleanUp) = try Self.copies()
        defer { cleanUp() }
        let plan = try bundle.migrationPlan(forStoreAt: v1, to: "SampleModel2")
        #expect(plan.sourceVersion == "SampleModel")
        #expect(plan.refusals.isEmpty)
        #expect(
            Set(plan.changes.map(\.description)) == [
                "remove attribute Car.color (data dropped)", "remove attribute Person.id (data dropped)",
                "rename entity ExpensiveSportCar → LuxuryCar",
            ])
    }

    @Test("V1 → SampleModel2 equals Apple's migrated V2: rows, entity numbers, hashes, UUID")
    func matchesApple() throws {
        let (v1, v2, bundle, cleanUp) = try Self.copies()
        defer { cleanUp() }
        let uuid = try StoreMetadata.read(from: v1).uuid
        let report = try bundle.migrateStore(at: v1, to: "SampleModel2")
        #expect(report.objectCount == 145)  // 125 cars + 20 people
        let ours = try StoreMetadata.read(from: v1)
        let apples = try StoreMetadata.read(from: v2)
        #expect(ours.uuid == uuid)
        #expect(ours.entityHashes == apples.entityHashes)
        #expect(ours.versionIdentifiers == ["2"])
        #expect(ours.digest == apples.digest)
        // Apple left Z_NAME 3 stale (ExpensiveSportCar); a fresh V2 store, and ours, say LuxuryCar.
        #expect(
            try MigrationTestSupport.rows("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT", in: v1) == [
                ["1", "Car", "0", "125"], ["2", "SportCar", "1", "0"], ["3", "LuxuryCar", "2", "0"], ["4", "Person", "0", "20"],
            ])
        for table in ["ZCAR", "ZPERSON"] {
            let columns = try MigrationTestSupport.rows("SELECT name FROM pragma_table_info('\(table)') ORDER BY name", in: v2).map { $0[0] }
            #expect(try MigrationTestSupport.rows("SELECT name FROM pragma_table_info('\(table)') ORDER BY name", in: v1).map { $0[0] } == columns)
            let select = "SELECT " + columns.map { "quote(\($0))" }.joined(separator: ", ") + " FROM \(table) ORDER BY Z_PK"
            let expected = try MigrationTestSupport.rows(select, in: v2)
            #expect(expected.count == (table == "ZCAR" ? 125 : 20))
            #expect(try MigrationTestSupport.rows(select, in: v1) == expected, "\(table)")
        }
        // The new fetch index, as Apple created it.
        let index = "SELECT sql FROM sqlite_master WHERE name = 'Z_Car_byMakerAndNumberPlate'"
        #expect(try MigrationTestSupport.rows(index, in: v1) == MigrationTestSupport.rows(index, in: v2))
        #expect(try MigrationTestSupport.rows(index, in: v1).count == 1)
        // And it opens with its bundle as SampleModel2.
        let container = try PersistentContainer(bundle: bundle, url: v1)
        #expect(container.coordinator.model.versionName == "SampleModel2")
        #expect(try container.viewContext.count(for: FetchRequest(entityName: "LuxuryCar")) == 5)
    }

    @Test("Apple's migrated V2 store migrates on to SampleModel3: Maker inserted as entity 4, Person renumbered 4 → 5")
    func onToVersion3() throws {
        let (_, v2, bundle, cleanUp) = try Self.copies()
        defer { cleanUp() }
        let plan = try bundle.migrationPlan(forStoreAt: v2, to: "SampleModel3")
        #expect(plan.sourceVersion == "SampleModel2")
        #expect(
            Set(plan.changes.map(\.description)) == [
                "remove attribute Car.maker (data dropped)", "add relationship Car.createdBy", "add relationship Car.previousOwners",
                "add entity Maker", "add relationship Person.previousCars",
            ])
        try bundle.migrateStore(at: v2, to: "SampleModel3")
        #expect(
            try MigrationTestSupport.rows("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT", in: v2) == [
                ["1", "Car", "0", "125"], ["2", "SportCar", "1", "0"], ["3", "LuxuryCar", "2", "0"], ["4", "Maker", "0", "0"],
                ["5", "Person", "0", "20"],
            ])
        #expect(try MigrationTestSupport.rows("SELECT DISTINCT Z_ENT FROM ZPERSON", in: v2) == [["5"]])
        let fresh = v2.deletingLastPathComponent().appendingPathComponent("Fresh3.sqlite")
        _ = try SQLiteStore(model: try #require(bundle.version(named: "SampleModel3")).model, url: fresh)
        #expect(try MigrationTestSupport.schema(of: v2) == MigrationTestSupport.schema(of: fresh))
        let container = try PersistentContainer(bundle: bundle, url: v2)
        #expect(container.coordinator.model.versionName == "SampleModel3")
        #expect(try container.viewContext.count(for: FetchRequest(entityName: "Car")) == 125)
        #expect(try container.viewContext.count(for: FetchRequest(entityName: "Person")) == 20)
    }
}
