import CDQIGenerator
import CDQIModel
import Foundation
import Testing

/// Issue 18: the embedded model of a bundle of several versions carries the earlier versions
/// (`VersionedGeneratedModel`), each distinct entity, attribute and relationship built by one function
/// shared by the versions (and entities) it appears in unchanged.
@Suite struct VersionedModelGenerationTests {
    @Test func shopCarriesVersionOneBesideTheCurrentVersion() throws {
        let bundle = try LoadedBundle(url: TestPaths.fixtures.appendingPathComponent("Shop.xcdatamodeld"))
        let generation = ProxyGenerator().generate(bundle.current.model, modelName: "Shop", earlierVersions: [bundle.versions[0].model])
        let file = try #require(generation.modelFile())
        #expect(file.name == "ShopModel.swift")
        #expect(file.contents == (try TestPaths.expectedText("Shop/ShopModel.swift.expected")))
    }

    /// Version A: `Kept` (`name` String) and `Changed` (`value` Integer 16). Version B: `Kept` as in A,
    /// `Changed.value` an Integer 32, and a new `Added`. Version C: as B, under another name.
    static func versions() -> [ManagedObjectModel] {
        func model(_ name: String, changedType: AttributeType, added: Bool) -> ManagedObjectModel {
            var kept = EntityDescription(name: "Kept")
            kept.attributes.append(AttributeDescription(name: "name", type: .string))
            var changed = EntityDescription(name: "Changed")
            changed.attributes.append(AttributeDescription(name: "value", type: changedType))
            var entities = [changed, kept]
            if added { entities.insert(EntityDescription(name: "Added"), at: 0) }
            var model = ManagedObjectModel(entities: entities)
            model.versionName = name
            return model
        }
        return [
            model("A", changedType: .integer16, added: false), model("B", changedType: .integer32, added: true),
            model("C", changedType: .integer32, added: true),
        ]
    }

    @Test func entitiesEqualAcrossVersionsShareOneBuilder() throws {
        let versions = Self.versions()
        let generation = ProxyGenerator().generate(versions[2], modelName: "Steps", earlierVersions: Array(versions[0..<2]))
        let contents = try #require(generation.modelFile()).contents
        #expect(contents.contains("nonisolated enum StepsModel: VersionedGeneratedModel {"))
        #expect(contents.contains("    static let versions: [ManagedObjectModel] = [makeVersion0(), makeVersion1(), model]\n"))
        // C's entities are 0 Added, 1 Changed, 2 Kept; A's Changed (Integer 16) is the only other body.
        #expect(contents.components(separatedBy: "private static func entity").count - 1 == 4)
        #expect(contents.contains("var model = ManagedObjectModel(entities: [entity0(), entity1(), entity2()])\n        model.versionName = \"C\"\n"))
        #expect(contents.contains("var model = ManagedObjectModel(entities: [entity3(), entity2()])\n        model.versionName = \"A\"\n"))
        #expect(contents.contains("var model = ManagedObjectModel(entities: [entity0(), entity1(), entity2()])\n        model.versionName = \"B\"\n"))
        #expect(
            contents.contains(
                "    private static func entity3() -> EntityDescription {\n        var entity = EntityDescription(name: \"Changed\")\n        entity.attributes = [attribute2()]\n"
            ))
        #expect(
            contents.contains(
                "    private static func entity2() -> EntityDescription {\n        var entity = EntityDescription(name: \"Kept\")\n        entity.attributes = [attribute1()]\n"
            ))
        // Attributes are shared too: C's `value` (Integer 32) and `name`, then A's `value` (Integer 16).
        #expect(contents.components(separatedBy: "private static func attribute").count - 1 == 3)
        #expect(
            contents.contains(
                "    private static func attribute2() -> AttributeDescription {\n        AttributeDescription(name: \"value\", type: .integer16)\n    }\n"
            ))
    }

    @Test func withoutEarlierVersionsTheModelIsAPlainGeneratedModel() throws {
        let versions = Self.versions()
        let contents = try #require(ProxyGenerator().generate(versions[2], modelName: "Steps").modelFile()).contents
        #expect(contents.contains("nonisolated enum StepsModel: GeneratedModel {"))
        #expect(!contents.contains("versions"))
        #expect(!contents.contains("makeVersion"))
    }
}
