import Foundation
import Testing

/// Locations the tests read from, found relative to this source file.
enum TestPaths {
    /// The package root (…/Tests/CDQIModelTests/TestPaths.swift → three levels up).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The project's own fixtures.
    static let fixtures = packageRoot.appendingPathComponent("Fixtures")

    /// The shared corpus of real-world models, when this checkout has one beside it.
    static let corpusModels: URL? = {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/models")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    /// Why corpus tests are skipped when the corpus is absent.
    static let corpusAbsent: Comment = "../shared/corpus is not present beside this checkout"

    static func fixture(_ name: String) -> URL { fixtures.appendingPathComponent(name) }
}
