import CDQIStore
import Foundation
import Testing

/// `cdqi migrate` and `cdqi inspect`, from the built binary, on the Library fixture's two versions.
@Suite struct MigrateCommandTests {
    static let bundle = LibraryVersion1Store.bundle

    static let plan = """
          from: 'Library'
          to:   'Library 2'
        9 change(s):
          - add entity Album
          - change the uniqueness constraints of Book
          - rename attribute Item.addedAt → createdAt
          - add relationship Item.tags
          - add entity Media
          - change the version hash inputs of Shelf (no data change)
          - add attribute Shelf.lastReviewedAt
          - make Shelf.items ordered
          - add entity Tag

        """

    @Test func dryRunPrintsThePlanAndWritesNothing() throws {
        let (folder, store) = try LibraryVersion1Store.make()
        _ = folder
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let output = try CommandRunner.run(["migrate", Self.bundle, store, "--dry-run"])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput == "migrate \(store)\n" + Self.plan + "dry run: nothing written\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }

    @Test func migratesThenFindsNothingToDo() throws {
        let (folder, store) = try LibraryVersion1Store.make()
        _ = folder
        let output = try CommandRunner.run(["migrate", Self.bundle, store])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput == "migrate \(store)\n" + Self.plan + "migrated 2 object(s) to 'Library 2'\n")
        let again = try CommandRunner.run(["migrate", Self.bundle, store])
        #expect(again.standardOutput == "\(store): already at version 'Library 2'; nothing to do\n")
        let export = try CommandRunner.run(["export", Self.bundle, store, "--entity", "Book"])
        #expect(export.status == 0, "\(export.standardError)")
        #expect(export.standardOutput.contains(#""createdAt": "2001-01-01T00:16:40Z""#))
    }

    @Test func inspectNamesTheVersionAndCountsObjects() throws {
        let (folder, store) = try LibraryVersion1Store.make()
        _ = folder
        let output = try CommandRunner.run(["inspect", store, Self.bundle])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("entity version hashes (3):\n"))
        #expect(
            output.standardOutput.contains(
                "carries its model (Z_MODELCACHE): yes (3 entities, matching the hashes)\nversion: 'Library'\nobjects:\n  Book 1\n  Item 0\n  Shelf 1\n"))
        // With no bundle, the model the store carries counts the objects.
        let bare = try CommandRunner.run(["inspect", store])
        #expect(
            bare.standardOutput.hasSuffix("carries its model (Z_MODELCACHE): yes (3 entities, matching the hashes)\nobjects:\n  Book 1\n  Item 0\n  Shelf 1\n"))
        try SQLiteConnection(path: store).execute("DELETE FROM Z_MODELCACHE")
        let without = try CommandRunner.run(["inspect", store])
        #expect(without.standardOutput.hasSuffix("carries its model (Z_MODELCACHE): no\nobjects: unknown (no model: give the store's model bundle)\n"))
    }

    @Test func refusesAChangeThatNeedsAMappingModel() throws {
        let (folder, store) = try LibraryVersion1Store.make()
        // A bundle whose version B turns Book.isbn from String into Integer 64.
        let bundle = folder.url.appendingPathComponent("Typed.xcdatamodeld")
        let original = try String(
            contentsOfFile: Self.bundle + "/Library.xcdatamodel/contents", encoding: .utf8)
        for (version, contents) in [
            ("A", original), ("B", original.replacingOccurrences(of: #"name="isbn" attributeType="String""#, with: #"name="isbn" attributeType="Integer 64""#)),
        ] {
            let folder = bundle.appendingPathComponent("\(version).xcdatamodel")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try contents.write(to: folder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let output = try CommandRunner.run(["migrate", bundle.path, store, "--to", "B"])
        #expect(output.status == 1)
        #expect(
            output.standardOutput == """
                migrate \(store)
                  from: 'A'
                  to:   'B'
                1 change(s):
                  - change the type of Book.isbn from String to Integer 64: not inferable (only numeric conversions are inferred)

                """)
        #expect(output.standardError == "cdqi: error: cannot migrate: 1 change(s) need a mapping model; nothing was written\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }
}
