import CDQIModel
import Foundation
import Testing

/// The strongest check of the decoder: two stores in the corpus were written by Apple's Core Data
/// with these very legacy models, and their metadata holds every entity's version hash. A hash covers
/// the entity's name, abstractness, parent, and each stored property's name, optionality, type,
/// destination, inverse and counts, so equal hashes mean all of those were decoded right.
@Suite(
    "Legacy model version hashes",
    .enabled(if: TestPaths.corpusModels != nil, TestPaths.corpusAbsent),
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "/usr/bin/sqlite3 is not installed, so store metadata cannot be read")
)
struct LegacyModelHashTests {
    static let sqlite = "/usr/bin/sqlite3"

    /// `NSStoreModelVersionHashes` of a corpus store, read from a copy (opening the original could
    /// change it), or `nil` when its metadata cannot be decoded (the suite is skipped when the corpus or
    /// the sqlite3 tool is missing).
    private func storedHashes(_ store: String) throws -> [String: Data]? {
        let models = try #require(TestPaths.corpusModels)
        let stores = models.deletingLastPathComponent().appendingPathComponent("stores")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-legacy-hash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for suffix in ["", "-wal", "-shm"] {
            let source = stores.appendingPathComponent(store + suffix)
            if FileManager.default.fileExists(atPath: source.path) {
                try FileManager.default.copyItem(at: source, to: folder.appendingPathComponent(store + suffix))
            }
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.sqlite)
        process.arguments = [folder.appendingPathComponent(store).path, "SELECT hex(Z_PLIST) FROM Z_METADATA;"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let hex = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        var bytes: [UInt8] = []
        var index = 0
        while index + 1 < hex.count {
            guard let byte = UInt8(String(decoding: hex[index...index + 1], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
            index += 2
        }
        let plist = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        return (plist as? [String: Any])?["NSStoreModelVersionHashes"] as? [String: Data]
    }

    private func computedHashes(_ bundle: String, version: String? = nil) throws -> [String: Data] {
        let models = try #require(TestPaths.corpusModels)
        let model = try ModelLoader().load(url: models.appendingPathComponent(bundle), version: version).model
        return ModelVersionHashes(model: model).entityHashes
    }

    @Test("MagicalRecord Recipes.sqlite: all 4 entity hashes match both binary versions", arguments: ["Recipes", "Recipes 2"])
    func recipes(version: String) throws {
        let stored = try #require(try storedHashes("magicalpanda__MagicalRecord__Recipes.sqlite"))
        let computed = try computedHashes("magicalpanda__MagicalRecord__Recipes.xcdatamodeld", version: version)
        #expect(stored.keys.sorted() == ["Image", "Ingredient", "Recipe", "RecipeType"])
        #expect(computed.keys.sorted() == stored.keys.sorted())
        for (entity, hash) in stored {
            #expect(computed[entity] == hash, "\(entity) in \(version)")
        }
        // A check on the check: the one detail the 2018 XML re-save lost (Image.recipe required)
        // changes the Image hash.
        var model = try ModelLoader().load(
            url: try #require(TestPaths.corpusModels).appendingPathComponent("magicalpanda__MagicalRecord__Recipes.xcdatamodeld"),
            version: version
        ).model
        let imageIndex = try #require(model.entities.firstIndex { $0.name == "Image" })
        let recipeIndex = try #require(model.entities[imageIndex].relationships.firstIndex { $0.name == "recipe" })
        model.entities[imageIndex].relationships[recipeIndex].isOptional = true
        #expect(ModelVersionHashes(model: model).entityHashes["Image"] != stored["Image"])
    }

    @Test("RestKit RKSeedDatabase.sqlite: both entity hashes match RKTwitterCoreData")
    func restKitTwitter() throws {
        let stored = try #require(try storedHashes("RestKit__RestKit__RKSeedDatabase.sqlite"))
        let computed = try computedHashes("RestKit__RestKit__RKTwitterCoreData.xcdatamodel")
        #expect(stored.keys.sorted() == ["Tweet", "User"])
        #expect(computed.keys.sorted() == stored.keys.sorted())
        for (entity, hash) in stored {
            #expect(computed[entity] == hash, "\(entity)")
        }
    }
}
