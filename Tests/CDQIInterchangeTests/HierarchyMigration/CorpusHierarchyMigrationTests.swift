import CDQIInterchange
import CDQIModel
import CDQIStore
import Foundation
import Testing

/// The corpus's consecutive version pairs with hierarchy changes, on stores filled for the older
/// version (``FillDocument``: two objects of each concrete entity, every attribute and relationship set):
/// Moody 3 → 4 moves `Continent` and `Country` out of the abstract `GeographicRegion` (removed, its
/// properties moved down); UnCloudNotes v3 → v4 adds the sub-entity `ImageAttachment`, so `Note` goes
/// from entity 2 to 3; CareKit 2.0 → 2.1 puts `OCKCDTask` under a new parent (inferable) beside
/// changes that are not.
@Suite(
    "Lightweight migration: corpus hierarchy changes",
    .enabled(if: InterchangeTestSupport.corpus != nil, "../shared/corpus is not present beside this checkout"))
struct CorpusHierarchyMigrationTests {
    static func bundle(_ name: String) throws -> LoadedBundle {
        let corpus = try #require(InterchangeTestSupport.corpus)
        return try LoadedBundle(url: corpus.appendingPathComponent("models/\(name).xcdatamodeld"))
    }

    /// Fills a store for `older`, migrates it to `newer`, and checks what every migration must give:
    /// every object kept with its values (``ExportComparison``), the destination's hashes, a fresh
    /// store's layout, a clean `cdqi check`. Returns the store, before and after, for the caller's checks.
    static func migrateFilled(
        _ bundle: LoadedBundle, from older: String, to newer: String, in folder: InterchangeTestSupport.Folder,
        before: (URL) throws -> Void, after: (URL) throws -> Void
    ) throws {
        let source = try #require(bundle.version(named: older)).model
        let destination = try #require(bundle.version(named: newer)).model
        let url = folder.file("\(older).sqlite")
        try InterchangeTestSupport.importJSON(FillDocument(model: source).text, model: source, into: url)
        try before(url)
        let exported = try InterchangeTestSupport.objects(in: InterchangeTestSupport.export(model: source, from: url))
        let plan = try bundle.migrationPlan(forStoreAt: url, to: newer)
        #expect(plan.refusals.isEmpty, "\(plan.refusals)")
        try bundle.migrateStore(at: url, to: newer)
        #expect(try StoreMetadata.read(from: url).isCompatible(with: destination))
        let fresh = folder.file("fresh-\(newer).sqlite")
        _ = try SQLiteStore(model: destination, url: fresh)
        #expect(try HierarchyMigrationTests.schema(of: url) == HierarchyMigrationTests.schema(of: fresh))
        #expect(try StoreChecker(model: destination).check(url) == [])
        let migrated = try InterchangeTestSupport.objects(in: InterchangeTestSupport.export(model: destination, from: url))
        #expect(ExportComparison(older: source, newer: destination).problems(before: exported, after: migrated) == [])
        try after(url)
    }

    @Test("Moody 3 → 4: continents and countries leave the GeographicRegion table with their keys and values")
    func moody() throws {
        let bundle = try Self.bundle("objcio__core-data__Moody")
        let diff = ModelDiff(
            from: try #require(bundle.version(named: "Moody 3")).model, to: try #require(bundle.version(named: "Moody 4")).model)
        let text = Set(diff.changes.map(\.description))
        #expect(text.contains("change the parent of Continent from GeographicRegion to none"))
        #expect(text.contains("change the parent of Country from GeographicRegion to none"))
        #expect(text.contains("remove entity GeographicRegion (its objects are deleted)"))
        #expect(diff.refusals.isEmpty)
        let folder = try InterchangeTestSupport.Folder()
        var continents: [[String]] = []
        var countries: [[String]] = []
        var maximum: [[String]] = []
        try Self.migrateFilled(
            bundle, from: "Moody 3", to: "Moody 4", in: folder,
            before: { url throws in
                // Moody 3: GeographicRegion 1 (abstract), Continent 2, Country 3, Mood 4; one table for the regions.
                let select = "SELECT Z_PK, Z_OPT, ZNUMERICISO3166CODE, ZUPDATEDAT FROM ZGEOGRAPHICREGION WHERE Z_ENT = "
                continents = try HierarchyMigrationTests.rows(select + "2 ORDER BY Z_PK", in: url)
                countries = try HierarchyMigrationTests.rows(select + "3 ORDER BY Z_PK", in: url)
                maximum = try HierarchyMigrationTests.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1", in: url)
                #expect(continents.count == 2 && countries.count == 2)
            },
            after: { url throws in
                // Moody 4: Continent 1, Country 2, Mood 3, each its own table, keys and values as they were.
                let select = { (table: String) in "SELECT Z_PK, Z_OPT, ZNUMERICISO3166CODE, ZUPDATEDAT FROM \(table) ORDER BY Z_PK" }
                #expect(try HierarchyMigrationTests.rows(select("ZCONTINENT"), in: url) == continents)
                #expect(try HierarchyMigrationTests.rows(select("ZCOUNTRY"), in: url) == countries)
                #expect(try HierarchyMigrationTests.rows("SELECT DISTINCT Z_ENT FROM ZCONTINENT", in: url) == [["1"]])
                #expect(try HierarchyMigrationTests.rows("SELECT DISTINCT Z_ENT FROM ZCOUNTRY", in: url) == [["2"]])
                // Both new roots keep GeographicRegion's key counter.
                let rows = try HierarchyMigrationTests.primaryKeys(url)
                #expect(rows.map { Array($0.prefix(3)) } == [["1", "Continent", "0"], ["2", "Country", "0"], ["3", "Mood", "0"]])
                #expect(rows.prefix(2).map { [$0[3]] } == [maximum[0], maximum[0]])
                #expect(!(try HierarchyMigrationTests.tables(url)).contains("ZGEOGRAPHICREGION"))
            })
    }

    @Test("UnCloudNotes v3 → v4: a new sub-entity renumbers Note from 2 to 3")
    func unCloudNotes() throws {
        let bundle = try Self.bundle("kodecocodes__cdt-materials__UnCloudNotesDataModel")
        let folder = try InterchangeTestSupport.Folder()
        try Self.migrateFilled(
            bundle, from: "UnCloudNotesDataModel v3", to: "UnCloudNotesDataModel v4", in: folder,
            before: { url throws in
                #expect(try HierarchyMigrationTests.rows("SELECT Z_ENT, COUNT(*) FROM ZNOTE GROUP BY Z_ENT", in: url) == [["2", "2"]])
            },
            after: { url throws in
                #expect(try HierarchyMigrationTests.rows("SELECT Z_ENT, COUNT(*) FROM ZNOTE GROUP BY Z_ENT", in: url) == [["3", "2"]])
                #expect(try HierarchyMigrationTests.rows("SELECT Z_ENT, COUNT(*) FROM ZATTACHMENT GROUP BY Z_ENT", in: url) == [["1", "2"]])
                #expect(
                    try HierarchyMigrationTests.primaryKeys(url).map { Array($0.prefix(3)) } == [
                        ["1", "Attachment", "0"], ["2", "ImageAttachment", "1"], ["3", "Note", "0"],
                    ])
            })
    }

    @Test("CareKit 2.0 → 2.1: the new parent of OCKCDTask is inferred; the refusal names only what is not")
    func careKit() throws {
        let bundle = try Self.bundle("carekit-apple__CareKit__CareKitStore")
        let diff = ModelDiff(
            from: try #require(bundle.version(named: "CareKitStore2.0")).model,
            to: try #require(bundle.version(named: "CareKitStore2.1")).model)
        let parent = diff.changes.filter { if case .parentChanged = $0.kind { true } else { false } }
        #expect(parent.map(\.description) == ["change the parent of OCKCDTask from none to OCKCDTaskBase"])
        #expect(!diff.refusals.isEmpty)
        #expect(!diff.refusals.contains { if case .parentChanged = $0.kind { true } else { false } })
    }
}
