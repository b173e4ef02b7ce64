import Foundation
import Testing

/// Issue 18 item 7: `cdqi generate` on a bundle of two versions writes the current version's classes,
/// proxies and model, and `Tests/CoreDataQueryInterfaceTests/GeneratedShop/` (which
/// `VersionedClassesMigrationTests` compiles and opens a version 1 store with) is exactly that output.
@Suite struct VersionedClassesGenerateTests {
    static let expectedFiles = ["Client.swift", "ClientAttribute.swift", "Purchase.swift", "PurchaseAttribute.swift", "ShopModel.swift"]

    @Test func generatesTheCurrentVersionAndTheCompiledCopyIsItsOutput() throws {
        let folder = try TemporaryFolder()
        try folder.copyFixture("Shop.xcdatamodeld")
        let output = try CommandRunner.run(["generate", "Shop", "-o", "Out"], in: folder.url)
        #expect(output.status == 0, "\(output.standardError)")
        #expect(folder.files(in: "Out") == Self.expectedFiles)
        // Version 2's names and defaults, none of version 1's.
        let client = try #require(folder.contents("Out/Client.swift"))
        #expect(client.contains("    var fullName: String {"))
        #expect(client.contains("    var loyaltyPoints: Int32 {"))
        #expect(!client.contains("var name:"))
        let model = try #require(folder.contents("Out/ShopModel.swift"))
        #expect(model.contains("model.versionName = \"Shop 2\""))
        let copy = CommandRunner.packageRoot.appendingPathComponent("Tests/CoreDataQueryInterfaceTests/GeneratedShop")
        for file in Self.expectedFiles {
            let committed = try String(contentsOf: copy.appendingPathComponent(file), encoding: .utf8)
            #expect(folder.contents("Out/\(file)") == committed, "GeneratedShop/\(file) is not what cdqi writes: copy it again")
        }
    }
}

/// Issue 18: which versions the generated model carries: all of a bundle's up to the generated one by
/// default, the generated one alone with `--versions current` or `"versions": "current"`.
@Suite struct GenerateVersionsOptionTests {
    @Test func currentCarriesTheGeneratedVersionAlone() throws {
        let folder = try TemporaryFolder()
        try folder.copyFixture("Shop.xcdatamodeld")
        let output = try CommandRunner.run(["generate", "Shop", "--versions", "current", "-o", "Out"], in: folder.url)
        #expect(output.status == 0, "\(output.standardError)")
        let model = try #require(folder.contents("Out/ShopModel.swift"))
        #expect(model.contains("nonisolated enum ShopModel: GeneratedModel {"))
        #expect(!model.contains("makeVersion0"))
        #expect(!model.contains("model.versionName = \"Shop\"\n"))
    }

    @Test func theConfigurationFileSaysCurrentAndTheCommandLineWins() throws {
        let folder = try TemporaryFolder()
        try folder.copyFixture("Shop.xcdatamodeld")
        let config = folder.url.appendingPathComponent("cdqi.json")
        try #"{"versions": "current"}"#.write(to: config, atomically: true, encoding: .utf8)
        let fromFile = try CommandRunner.run(["generate", "Shop", "--config", config.path, "-o", "File"], in: folder.url)
        #expect(fromFile.status == 0, "\(fromFile.standardError)")
        #expect(try #require(folder.contents("File/ShopModel.swift")).contains("enum ShopModel: GeneratedModel {"))
        let overridden = try CommandRunner.run(
            ["generate", "Shop", "--config", config.path, "--versions", "all", "-o", "Line"], in: folder.url)
        #expect(overridden.status == 0, "\(overridden.standardError)")
        #expect(try #require(folder.contents("Line/ShopModel.swift")).contains("enum ShopModel: VersionedGeneratedModel {"))
    }

    @Test func aWrongValueIsAUsageError() throws {
        let folder = try TemporaryFolder()
        try folder.copyFixture("Shop.xcdatamodeld")
        let output = try CommandRunner.run(["generate", "Shop", "--versions", "some", "-o", "Out"], in: folder.url)
        #expect(output.status == 64)
        #expect(output.standardError.contains("--versions 'some' must be 'all' or 'current'."))
        #expect(folder.files(in: "Out").isEmpty)
    }

    /// Version 1's file cut short: it cannot be carried, so nothing is written unless the generated
    /// version alone is asked for.
    @Test func anUnreadableEarlierVersionStopsGenerationUnlessCurrentIsAsked() throws {
        let folder = try TemporaryFolder()
        try folder.copyFixture("Shop.xcdatamodeld")
        let contents = folder.url.appendingPathComponent("Shop.xcdatamodeld/Shop.xcdatamodel/contents")
        try "<?xml version=\"1.0\"?>\n<model><entity name=\"Client\"".write(to: contents, atomically: true, encoding: .utf8)
        let output = try CommandRunner.run(["generate", "Shop", "-o", "Out"], in: folder.url)
        #expect(output.status == 1)
        #expect(output.standardError.contains("Shop.xcdatamodel/contents:"))
        #expect(output.standardError.contains("an earlier version of Shop.xcdatamodeld cannot be read"))
        #expect(output.standardError.contains("--versions current"))
        #expect(folder.files(in: "Out").isEmpty)
        let current = try CommandRunner.run(["generate", "Shop", "--versions", "current", "-o", "Out"], in: folder.url)
        #expect(current.status == 0, "\(current.standardError)")
        #expect(folder.files(in: "Out").contains("ShopModel.swift"))
    }
}
