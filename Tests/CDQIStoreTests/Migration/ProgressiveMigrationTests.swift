import CDQIModel
import CDQIStore
import Foundation
import Testing

/// Progressive migration: when the direct change cannot be inferred, the store goes through every
/// intermediate version. Bundle V1 → V2 removes `Book.isbn` (String), V2 → V3 adds `isbn` back as an
/// Integer 64: straight from V1 to V3 it is a String → Integer 64 change, which is not inferable.
@Suite("Lightweight migration: progressive")
struct ProgressiveMigrationTests {
    static func makeBundle(in folder: URL) throws -> URL {
        let bundle = folder.appendingPathComponent("Steps.xcdatamodeld")
        let original = try String(
            contentsOf: MigrationTestSupport.library.appendingPathComponent("Library.xcdatamodel/contents"), encoding: .utf8)
        let isbn = #"<attribute name="isbn" attributeType="String"/>"#
        #expect(original.contains(isbn))
        for (version, contents) in [
            ("V1", original), ("V2", original.replacingOccurrences(of: isbn, with: "")),
            (
                "V3",
                original.replacingOccurrences(of: isbn, with: #"<attribute name="isbn" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>"#)
            ),
        ] {
            let versionFolder = bundle.appendingPathComponent("\(version).xcdatamodel")
            try FileManager.default.createDirectory(at: versionFolder, withIntermediateDirectories: true)
            try contents.write(to: versionFolder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        }
        return bundle
    }

    @Test("V1 → V3 runs as V1 → V2 → V3, and the store ends at V3 with its objects")
    func steps() throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let bundle = try LoadedBundle(url: try Self.makeBundle(in: folder))
        #expect(bundle.versions.map(\.model.versionName) == ["V1", "V2", "V3"])
        let url = folder.appendingPathComponent("Steps.sqlite")
        do {
            let container = try PersistentContainer(model: bundle.versions[0].model, url: url)
            let book = try container.viewContext.insertNewObject(forEntityName: "Book")
            try book.setValue("Dune", forKey: "title")
            try book.setValue("0441013597", forKey: "isbn")
            try book.setValue(Date(timeIntervalSinceReferenceDate: 1000), forKey: "addedAt")
            try container.viewContext.save()
        }
        let plan = try bundle.migrationPlan(forStoreAt: url)
        #expect(
            plan.changes.map(\.description) == [
                "change the type of Book.isbn from String to Integer 64: not inferable (only numeric conversions are inferred)",
                "make Book.isbn optional",
            ])
        #expect(plan.refusals.isEmpty)
        #expect(plan.steps.map { "\($0.sourceVersion ?? "") → \($0.destinationVersion ?? "")" } == ["V1 → V2", "V2 → V3"])
        #expect(
            plan.steps.map { $0.changes.map(\.description) } == [
                ["remove attribute Book.isbn (data dropped)"], ["add attribute Book.isbn"],
            ])
        try bundle.migrateStore(at: url)
        #expect(bundle.version(matching: try StoreMetadata.read(from: url))?.model.versionName == "V3")
        #expect(try MigrationTestSupport.rows("SELECT ZTITLE, IFNULL(ZISBN, 'NULL') FROM ZITEM", in: url) == [["Dune", "NULL"]])
    }
}
