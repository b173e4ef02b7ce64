import Foundation
import Testing

/// A store of the Library fixture bundle's first version 'Library' (the current one is 'Library 2'),
/// written by `cdqi import`: shelf Fiction holding Dune, added 1000 s after 2001-01-01.
enum LibraryVersion1Store {
    /// The Library fixture bundle, both versions.
    static let bundle = CommandRunner.packageRoot.appendingPathComponent("Fixtures/Library.xcdatamodeld").path

    /// Writes the store into a new temporary folder; the store lives as long as `folder` does.
    static func make() throws -> (folder: TemporaryFolder, store: String) {
        let folder = try TemporaryFolder()
        let document = folder.url.appendingPathComponent("seed.json")
        try Data(
            #"""
            {"Shelf": [{"_id": "f", "name": "Fiction"}],
             "Book": [{"_id": "d", "title": "Dune", "isbn": "0441013597", "addedAt": "2001-01-01T00:16:40Z", "shelf": "f"}]}
            """#.utf8
        ).write(to: document)
        let store = folder.url.appendingPathComponent("library.sqlite").path
        let output = try CommandRunner.run(["import", bundle, store, document.path, "--model-version", "Library"])
        #expect(output.status == 0, "\(output.standardError)")
        return (folder, store)
    }
}
