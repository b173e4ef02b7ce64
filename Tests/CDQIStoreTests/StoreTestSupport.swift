import CDQIModel
import Foundation

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

    /// A new empty folder under the temporary directory, and a function that removes it.
    static func temporaryFolder() throws -> (URL, () -> Void) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (folder, { try? FileManager.default.removeItem(at: folder) })
    }

    /// Copies a corpus store with its `-wal` and `-shm` sidecars into `folder` (opening the original
    /// would checkpoint and change it) and returns the copy's path.
    static func copyStore(named name: String, from stores: URL, into folder: URL) throws -> URL {
        let target = folder.appendingPathComponent(name)
        for suffix in ["", "-wal", "-shm"] {
            let source = stores.appendingPathComponent(name + suffix)
            if FileManager.default.fileExists(atPath: source.path) {
                try FileManager.default.copyItem(at: source, to: URL(fileURLWithPath: target.path + suffix))
            }
        }
        return target
    }
}
