import CDQIModel
import Foundation
import Testing

/// Bundle handling and lenient reading, on small models written on the fly.
@Suite("Loader edge cases")
struct LoaderEdgeCaseTests {
    private let header = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#

    /// Writes files (relative path → text) into a new folder and returns the folder.
    private func folder(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-edge-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }

    private func model(_ body: String) -> String {
        header + "\n<model type=\"com.apple.IDECoreDataModeler.DataModel\" documentVersion=\"1.0\">\n" + body + "\n</model>"
    }

    @Test("unknown elements and attributes are ignored with a warning naming them and their line")
    func unknownVocabulary() throws {
        let root = try folder([
            "M.xcdatamodel/contents": model(
                """
                <entity name="E" representedClassName="E" futureFlag="YES">
                    <attribute name="a" attributeType="String" sparkles="7"/>
                    <hologram name="h"/>
                </entity>
                """)
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let loaded = try ModelLoader().load(url: root.appendingPathComponent("M.xcdatamodel"))
        #expect(loaded.model.entity(named: "E")?.attributes.map(\.name) == ["a"])
        #expect(
            loaded.warnings.map(\.message) == [
                "unknown attribute 'futureFlag' on <entity> ignored",
                "unknown attribute 'sparkles' on <attribute> ignored",
                "unknown element <hologram> in entity 'E' ignored",
            ])
        #expect(loaded.warnings.map { $0.location?.line } == [3, 4, 5])
        #expect(loaded.warnings.allSatisfy { $0.severity == .warning })
    }

    @Test("booleans in every spelling Xcode wrote, and a value that is not one")
    func booleans() throws {
        let root = try folder([
            "M.xcdatamodel/contents": model(
                """
                <entity name="E" isAbstract="true">
                    <attribute name="a" optional="YES" attributeType="String"/>
                    <attribute name="b" optional="false" attributeType="String"/>
                    <attribute name="c" optional="no" transient="True" attributeType="String"/>
                </entity>
                """)
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let entity = try #require(try ModelLoader().load(url: root.appendingPathComponent("M.xcdatamodel")).model.entity(named: "E"))
        #expect(entity.isAbstract)
        #expect(entity.attributes.map(\.isOptional) == [true, false, false])
        #expect(entity.attributes.map(\.isTransient) == [false, false, true])

        let bad = try folder(["M.xcdatamodel/contents": model(#"<entity name="E"><attribute name="a" optional="maybe" attributeType="String"/></entity>"#)])
        defer { try? FileManager.default.removeItem(at: bad) }
        #expect(
            throws: ModelError.invalid([
                ModelDiagnostic(
                    .error, "'optional' is 'maybe', expected YES or NO",
                    at: SourceLocation(file: bad.appendingPathComponent("M.xcdatamodel/contents").path, line: 3))
            ])
        ) {
            try ModelLoader().load(url: bad.appendingPathComponent("M.xcdatamodel"))
        }
    }

    @Test("a bundle without a current version: the only version, or the one named after the bundle with a warning")
    func currentVersionFallbacks() throws {
        let entity = #"<entity name="E"><attribute name="a" attributeType="String"/></entity>"#
        let single = try folder(["One.xcdatamodeld/Whatever.xcdatamodel/contents": model(entity)])
        defer { try? FileManager.default.removeItem(at: single) }
        let loaded = try ModelLoader().load(url: single.appendingPathComponent("One.xcdatamodeld"))
        #expect(loaded.model.versionName == "Whatever")
        #expect(loaded.warnings.isEmpty)

        let several = try folder([
            "Two.xcdatamodeld/Two.xcdatamodel/contents": model(entity),
            "Two.xcdatamodeld/Two 2.xcdatamodel/contents": model(entity),
            "Two.xcdatamodeld/.xccurrentversion": "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict/>\n</plist>\n",
        ])
        defer { try? FileManager.default.removeItem(at: several) }
        let chosen = try ModelLoader().load(url: several.appendingPathComponent("Two.xcdatamodeld"))
        #expect(chosen.model.versionName == "Two")
        #expect(chosen.warnings.count == 1)
        #expect(chosen.warnings.first?.message.contains("no current version; using 'Two'") == true)

        let unnamed = try folder([
            "Three.xcdatamodeld/A.xcdatamodel/contents": model(entity),
            "Three.xcdatamodeld/B.xcdatamodel/contents": model(entity),
        ])
        defer { try? FileManager.default.removeItem(at: unnamed) }
        #expect(throws: ModelError.self) { try ModelLoader().load(url: unnamed.appendingPathComponent("Three.xcdatamodeld")) }
    }

    @Test("a .xccurrentversion that is not a property list is an error on its line")
    func brokenCurrentVersion() throws {
        let root = try folder([
            "M.xcdatamodeld/M.xcdatamodel/contents": model(#"<entity name="E"/>"#),
            "M.xcdatamodeld/.xccurrentversion":
                "<?xml version=\"1.0\"?>\n<plist>\n<dict>\n<key>_XCCurrentVersionName</key>\n<string>M.xcdatamodel\n</dict>\n</plist>\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        do {
            _ = try ModelLoader().load(url: root.appendingPathComponent("M.xcdatamodeld"))
            Issue.record("a broken .xccurrentversion was accepted")
        } catch {
            let diagnostic = try #require(error.diagnostics.first)
            #expect(diagnostic.location?.file.hasSuffix("M.xcdatamodeld/.xccurrentversion") == true)
            #expect(diagnostic.location?.line == 6)
            #expect(diagnostic.message.hasPrefix("malformed XML"))
        }
    }

    @Test("an empty contents file")
    func emptyFile() throws {
        let root = try folder(["M.xcdatamodel/contents": ""])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(
            throws: ModelError.invalid([
                ModelDiagnostic(
                    .error, "the file is empty", at: SourceLocation(file: root.appendingPathComponent("M.xcdatamodel/contents").path, line: 1))
            ])
        ) {
            try ModelLoader().load(url: root.appendingPathComponent("M.xcdatamodel"))
        }
    }
}

/// A model's `contents` that is not a regular file is refused with a clear error, never read (a FIFO
/// used to hang the loader; a folder gave "NSCocoaErrorDomain error 256"): issue 15, finding 3.
@Suite("Loader: contents that is not a regular file")
struct NonRegularContentsTests {
    private func versionFolder() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-special-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("M.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private func reason(loading folder: URL) -> String? {
        do {
            _ = try ModelLoader().load(url: folder)
            return nil
        } catch .unreadable(let path, let reason) {
            #expect(path == folder.appendingPathComponent("contents").path)
            return reason
        } catch {
            Issue.record("expected an unreadable-file error, got \(error)")
            return nil
        }
    }

    @Test("a FIFO as contents: refused at once, without waiting for a writer")
    func fifo() throws {
        let folder = try versionFolder()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let fifo = folder.appendingPathComponent("contents").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // Should the loader wait on the FIFO (the old behaviour), a writer comes after 3 s and closes
        // it, so that the test fails instead of hanging.
        let rescue = Thread {
            Thread.sleep(forTimeInterval: 3)
            let writer = open(fifo, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
        rescue.start()
        let started = Date()
        #expect(reason(loading: folder) == "it is a FIFO (named pipe), not a regular file")
        #expect(Date().timeIntervalSince(started) < 2)
    }

    @Test("a folder as contents: refused, naming it a folder")
    func folderAsContents() throws {
        let folder = try versionFolder()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("contents"), withIntermediateDirectories: false)
        #expect(reason(loading: folder) == "it is a folder, not a regular file")
    }
}
