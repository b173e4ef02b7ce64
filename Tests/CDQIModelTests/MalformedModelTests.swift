import CDQIModel
import CDQITestSupport
import Foundation
import Testing

/// Broken inputs give one typed error naming each problem with its file and line; none crashes.
@Suite("Malformed models")
struct MalformedModelTests {
    let loader = ModelLoader()

    /// Loads a malformed fixture and returns the error's diagnostics as (line, message) pairs.
    private func failure(_ fixture: String) throws -> (error: ModelError, lines: [Int], text: String) {
        let url = TestPaths.fixture("Malformed/\(fixture)")
        do {
            _ = try loader.load(url: url)
        } catch {
            for diagnostic in error.diagnostics {
                #expect(diagnostic.severity == .error)
                #expect(diagnostic.location?.file.hasPrefix(url.path) == true)
            }
            return (error, error.diagnostics.compactMap { $0.location?.line }, error.description)
        }
        Issue.record("\(fixture) loaded, but it is malformed")
        throw CancellationError()
    }

    @Test("truncated XML: a syntax error at the end of the input")
    func truncated() throws {
        let result = try failure("Truncated.xcdatamodel")
        #expect(result.lines == [5])
        #expect(result.text.contains("malformed XML"))
        #expect(result.text.contains("Truncated.xcdatamodel/contents:5: error:"))
    }

    @Test("an unknown attribute type names the type and its line")
    func unknownType() throws {
        let result = try failure("UnknownType.xcdatamodel")
        #expect(result.lines == [5])
        #expect(result.text.contains("unknown type 'Integer 128'"))
    }

    @Test("a relationship to a missing entity")
    func missingEntity() throws {
        let result = try failure("MissingEntity.xcdatamodel")
        #expect(result.lines == [5])
        #expect(result.text.contains("unknown entity 'Nowhere'"))
    }

    @Test("an inverse that does not point back")
    func badInverse() throws {
        let result = try failure("BadInverse.xcdatamodel")
        #expect(result.lines == [4])
        #expect(result.text.contains("relationship 'A.b'"))
    }

    @Test("a property redeclared along the inheritance chain")
    func duplicateInherited() throws {
        let result = try failure("DuplicateInherited.xcdatamodel")
        #expect(result.lines == [8])
        #expect(result.text.contains("redeclares property 'name' inherited from 'Animal'"))
    }

    @Test("every problem of a file is reported at once")
    func manyProblems() throws {
        let result = try failure("ManyProblems.xcdatamodel")
        #expect(result.lines == [5, 7, 8, 9, 13])
        #expect(result.text.contains("unknown type 'Strnig'"))
        #expect(result.text.contains("declares property 'number' more than once"))
        #expect(result.text.contains("'Invoice.paidAt' has no type"))
        #expect(result.text.contains("unknown entity 'Customer'"))
        #expect(result.text.contains("unknown property 'reference'"))
    }

    @Test(".xccurrentversion naming a missing version")
    func missingVersion() throws {
        let result = try failure("MissingVersion.xcdatamodeld")
        guard case .versionNotFound(_, let name, let available, let namedBy) = result.error else {
            Issue.record("unexpected error \(result.error)")
            return
        }
        #expect(name == "Ghost")
        #expect(available == ["Real"])
        #expect(namedBy?.hasSuffix("MissingVersion.xcdatamodeld/.xccurrentversion") == true)
        #expect(result.text.contains("model version 'Ghost' is not in the bundle (versions: 'Real')"))
        // The version itself is fine when asked for by name.
        #expect(throws: Never.self) { try loader.load(url: TestPaths.fixture("Malformed/MissingVersion.xcdatamodeld"), version: "Real") }
    }

    @Test("an empty bundle")
    func emptyBundle() throws {
        let result = try failure("Empty.xcdatamodeld")
        #expect(result.error == .noVersions(bundle: TestPaths.fixture("Malformed/Empty.xcdatamodeld").path))
    }

    @Test("an external entity is refused with the DOCTYPE, and nothing is read")
    func externalEntity() throws {
        let result = try failure("ExternalEntity.xcdatamodel")
        #expect(result.lines == [2])
        #expect(result.text.contains("DOCTYPE"))
        #expect(!result.text.contains("root:"))
    }

    @Test("an entity expansion bomb is refused at once")
    func billionLaughs() throws {
        let result = try failure("BillionLaughs.xcdatamodel")
        #expect(result.lines == [2])
    }

    @Test("bytes that are not XML")
    func notXML() throws {
        let result = try failure("NotXML.xcdatamodel")
        #expect(result.lines == [1])
        #expect(result.text.contains("malformed XML"))
    }

    @Test("a binary 'elements' file that is not an Xcode 3 model gets an error that says so and how to convert")
    func legacy() throws {
        let result = try failure("Legacy.xcdatamodel")
        #expect(
            result.error
                == .legacyBinaryFormat(
                    path: TestPaths.fixture("Malformed/Legacy.xcdatamodel/elements").path,
                    reason: "not an Xcode 3 model archive: not an NSKeyedArchiver archive: no '$archiver' key"))
        #expect(result.text.contains("open the model once in Xcode"))
    }

    @Test("missing paths and folders that are not models")
    func notModels() throws {
        let missing = TestPaths.fixture("Malformed/Nothing.xcdatamodeld")
        #expect(throws: ModelError.fileNotFound(path: missing.path)) { try loader.load(url: missing) }
        #expect(throws: ModelError.self) { try loader.load(url: TestPaths.fixture("Malformed")) }
    }
}

/// Inputs made on the fly: sizes and shapes that would be silly to commit.
@Suite("Hostile model files")
struct HostileModelFileTests {
    private func temporaryFile(_ name: String, _ bytes: some Collection<UInt8>) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    @Test("a 100 MB model file is refused before it is read")
    func hugeFile() throws {
        let url = try temporaryFile("contents", [])
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 100 << 20)  // a sparse 100 MiB file
        try handle.close()
        #expect(throws: ModelError.fileTooLarge(path: url.path, size: 100 << 20, limit: 64 << 20)) {
            try ModelLoader().load(url: url)
        }
    }

    @Test("line numbers past 65,535 are reported exactly")
    func bigLines() throws {
        var xml = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n<model>\n<entity name=\"Big\">\n"
        for index in 0..<70_000 { xml += "<attribute name=\"a\(index)\" attributeType=\"String\"/>\n" }
        xml += "<attribute name=\"bad\" attributeType=\"Nope\"/>\n</entity>\n</model>\n"
        let url = try temporaryFile("contents", Array(xml.utf8))
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        do {
            _ = try ModelLoader().load(url: url)
            Issue.record("loaded a model with an unknown type")
        } catch {
            // 3 header lines, then the 70,000 attributes: the bad one is line 70,004.
            #expect(error.diagnostics.map { $0.location?.line } == [70_004])
        }
    }

    @Test("deep nesting gives an error, not a stack overflow")
    func deepNesting() throws {
        let depth = 5_000
        let xml = "<model>" + String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth) + "</model>"
        let url = try temporaryFile("contents", Array(xml.utf8))
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        #expect(throws: ModelError.self) { try ModelLoader().load(url: url) }
    }

    @Test("random bytes never crash the loader", arguments: 0..<200)
    func randomBytes(seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(seed))
        let prefix = Array(#"<?xml version="1.0"?><model><entity name="E"><attribute name="a" "#.utf8)
        let length = Int.random(in: 0..<400, using: &generator)
        let noise = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let url = try temporaryFile("contents", seed.isMultiple(of: 2) ? noise : prefix + noise)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        do {
            _ = try ModelLoader().load(url: url)
        } catch {
            #expect(!error.diagnostics.isEmpty)
        }
    }
}
