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
