import CDQIModel
import Foundation
import Testing

/// Locations and scratch space for the store tests.
enum StoreTestSupport {
    /// The package root (…/Tests/CDQIStoreTests/StoreTestSupport.swift → three levels up).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The project's fixture models.
    static func fixtureModel(_ name: String) throws -> ManagedObjectModel {
        try ModelLoader().load(url: packageRoot.appendingPathComponent("Fixtures/\(name).xcdatamodeld")).model
    }

    /// The shared corpus, when this checkout has one beside it.
    static let corpus: URL? = {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    /// Why corpus tests are skipped when the corpus is absent.
    static let corpusAbsent: Comment = "../shared/corpus is not present beside this checkout"

    /// A new empty folder under the temporary directory, and a function that removes it.
    static func temporaryFolder() throws -> (URL, () -> Void) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (folder, { try? FileManager.default.removeItem(at: folder) })
    }
}
