import CDQIModel
import Foundation
import Testing

/// Walks every real-world model of `../shared/corpus/models`: each loads, or fails with a typed error
/// whose diagnostics name a file; nothing crashes.
@Suite("Corpus models", .enabled(if: TestPaths.corpusModels != nil, TestPaths.corpusAbsent))
struct CorpusTests {
    /// Bundles whose failure is expected, with the reason (checked, so a fix or a regression shows up).
    static let expectedFailures: [String: String] = [
        // An empty bundle: only a `.xccurrentversion` holding `<dict/>`.
        "RestKit__RestKit__RestKitCoreData.xcdatamodeld": "noVersions"
    ]

    @Test("every corpus model loads or fails with a clear error")
    func walkCorpus() throws {
        let corpus = try #require(TestPaths.corpusModels)
        let bundles = try FileManager.default.contentsOfDirectory(atPath: corpus.path)
            .filter { $0.hasSuffix(".xcdatamodeld") || $0.hasSuffix(".xcdatamodel") }
            .sorted()
        #expect(bundles.count == 80)
        var loaded = 0, entities = 0, attributes = 0, relationships = 0
        var failures: [String] = []
        for bundle in bundles {
            do {
                let result = try ModelLoader().load(url: corpus.appendingPathComponent(bundle))
                loaded += 1
                entities += result.model.entities.count
                attributes += result.model.entities.reduce(0) { $0 + $1.attributes.count }
                relationships += result.model.entities.reduce(0) { $0 + $1.relationships.count }
                #expect(Self.expectedFailures[bundle] == nil, "\(bundle) was expected to fail but loaded")
            } catch {
                failures.append("\(bundle): \(error)")
                #expect(!error.diagnostics.isEmpty)
                for diagnostic in error.diagnostics {
                    #expect(diagnostic.location?.file.contains(bundle) == true, "\(diagnostic) names no corpus file")
                }
                if let expected = Self.expectedFailures[bundle] {
                    #expect(kind(of: error) == expected, "\(bundle) failed differently: \(error)")
                } else {
                    Issue.record("\(bundle) failed to load: \(error)")
                }
            }
        }
        print(
            "corpus: \(loaded) of \(bundles.count) bundles load; \(entities) entities, \(attributes) attributes, \(relationships) relationships in their current versions"
        )
        for failure in failures { print("  expected failure: \(failure)") }
    }

    @Test("every version of every corpus bundle loads")
    func walkAllVersions() throws {
        let corpus = try #require(TestPaths.corpusModels)
        let loader = ModelLoader()
        var versions = 0, legacy = 0
        for bundle in try FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted()
        where bundle.hasSuffix(".xcdatamodeld") {
            let url = corpus.appendingPathComponent(bundle)
            for name in try loader.versions(ofBundle: url).names {
                do {
                    let loaded = try loader.load(url: url, version: name)
                    #expect(loaded.model.versionName == name)
                    versions += 1
                } catch .legacyBinaryFormat {
                    legacy += 1
                } catch {
                    Issue.record("\(bundle) version \(name): \(error)")
                }
            }
        }
        // Counted with `find` over the corpus: 273 `contents` and 7 legacy `elements` files inside
        // bundles; the legacy ones are decoded too (LegacyCorpusTests checks them in detail).
        print("corpus: \(versions) versions inside bundles load; \(legacy) legacy binary versions refused")
        #expect(versions == 280)
        #expect(legacy == 0)
    }

    private func kind(of error: ModelError) -> String {
        switch error {
        case .legacyBinaryFormat: "legacy"
        case .noVersions: "noVersions"
        default: "other"
        }
    }
}
