import CDQIGenerator
import CDQIModel
import Foundation
import Testing

/// `cdqi generate --sworm`: model in, hand-written Sworm structs out (`Expected/Sworm/`). The
/// Sworm tests compile both expected files and run them against stores (`SwormTests/Generated`).
@Suite struct SwormStructWriterTests {
    @Test func companyStructsWithDefaults() throws {
        let loaded = try ModelLoader().load(url: TestPaths.fixtures.appendingPathComponent("Company.xcdatamodeld"))
        let (file, diagnostics) = SwormStructWriter().generate(loaded.model, modelName: loaded.modelName)
        #expect(file.name == "Company+Sworm.swift")
        #expect(file.entityNames == ["Department", "Employee", "TestEntity"])
        #expect(file.contents == (try TestPaths.expectedText("Sworm/Company+Sworm.swift.expected")))
        // The Transformable attribute is left out with a warning at its line; the transient one silently.
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.message.contains("'transformable'") == true)
        #expect(diagnostics.first?.location?.line == 31)
    }

    /// Inheritance, an ordered relation, a keyword-named attribute, every default, public access and
    /// an indentation of two.
    @Test func mediaStructsPublicWithInheritance() throws {
        func attribute(
            _ name: String, _ type: AttributeType, optional: Bool = false, transient: Bool = false, defaultValue: String? = nil
        ) -> AttributeDescription {
            var attribute = AttributeDescription(name: name, type: type, isOptional: optional)
            attribute.isTransient = transient
            attribute.defaultValueString = defaultValue
            return attribute
        }
        var track = EntityDescription(name: "Track")
        track.attributes = [attribute("name", .string, optional: true)]
        track.relationships = [RelationshipDescription(name: "album", destinationEntityName: "Album", inverseName: "tracks", inverseEntityName: "Album")]
        var item = EntityDescription(name: "Item")
        item.isAbstract = true
        item.attributes = [attribute("title", .string, defaultValue: "Untitled"), attribute("default", .integer16, defaultValue: "5")]
        var album = EntityDescription(name: "Album", parentEntityName: "Item")
        album.attributes = [
            attribute("trackCount", .integer16), attribute("rating", .double, defaultValue: "4.5"),
            attribute("price", .decimal, defaultValue: "9.99"), attribute("link", .uri), attribute("flag", .boolean, defaultValue: "YES"),
            attribute("cover", .binaryData), attribute("added", .date), attribute("key", .uuid),
            attribute("scratch", .string, transient: true), attribute("blob", .transformable, optional: true),
        ]
        var tracks = RelationshipDescription(name: "tracks", destinationEntityName: "Track", inverseName: "album", inverseEntityName: "Track", isToMany: true)
        tracks.isOrdered = true
        album.relationships = [tracks]
        let model = ManagedObjectModel(entities: [track, item, album])
        let writer = SwormStructWriter(options: GeneratorOptions(accessLevel: .public, indentWidth: 2))
        let (file, diagnostics) = writer.generate(model, modelName: "Media")
        #expect(file.name == "Media+Sworm.swift")
        #expect(file.contents == (try TestPaths.expectedText("Sworm/Media+Sworm.swift.expected")))
        #expect(diagnostics.map(\.message) == ["attribute 'blob' of entity 'Album' is Transformable, which Sworm cannot map; its struct leaves it out"])
    }
}
