import Foundation

/// Paths the generator tests read, found from this file's location.
enum TestPaths {
    /// The package root: …/Tests/CDQIGeneratorTests/TestPaths.swift, three levels up.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = packageRoot.appendingPathComponent("Fixtures")
    static let expected = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Expected")
    static let corpusModels = packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/corpus/models")

    /// The text of a hand-written expected file under `Expected/`.
    static func expectedText(_ relativePath: String) throws -> String {
        try String(contentsOf: expected.appendingPathComponent(relativePath), encoding: .utf8)
    }
}
