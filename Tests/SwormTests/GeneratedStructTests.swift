import CDQIModel
import Foundation
import Sworm
import Testing

/// The structs `cdqi generate --sworm` writes (`Generated/`, copies of the generator's hand-written
/// expected files) compile against Sworm and work against stores of their models.
@Suite struct GeneratedStructTests {
    private static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    @Test(arguments: ["Company+Sworm.swift", "Media+Sworm.swift"])
    func generatedCopiesMatchTheGeneratorsExpectedFiles(name: String) throws {
        let copy = try String(contentsOf: Self.testsFolder.appendingPathComponent("Generated/\(name)"), encoding: .utf8)
        let expected = try String(
            contentsOf: Self.testsFolder.deletingLastPathComponent().appendingPathComponent("CDQIGeneratorTests/Expected/Sworm/\(name).expected"),
            encoding: .utf8)
        #expect(copy == expected)
    }

    @Test func companyStructsAgainstTheCompanyFixture() throws {
        let fixture = Self.testsFolder.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/Company.xcdatamodeld")
        let db = try TestStores.sworm(try ModelLoader().load(url: fixture).model)
        let hired = Date(timeIntervalSinceReferenceDate: 86_400)
        try db.perform { ctx in
            let research = try ctx.insert(Department(budget: Decimal(string: "1000.5"), name: "Research"))
            research.employees.add(try ctx.insert(Employee(firstName: "Ada", hireDate: hired, lastName: "Lovelace", salary: 10)))
            research.employees.add(try ctx.insert(Employee(firstName: "Alan", lastName: "Turing", nickName: "A", salary: 20)))
            try ctx.insert(TestEntity(boolean: true, integer16: -3, uri: URL(string: "https://x.example")))
        }
        let (departments, employees, test) = try db.perform { ctx in
            (
                try ctx.fetch(Department.all).map { try $0.decode() },
                try ctx.fetch(Employee.all.where(\Employee.salary > 15 || \Employee.hireDate != nil).sort(\.salary)).map { try $0.decode() },
                try ctx.fetchOne(TestEntity.all)?.decode()
            )
        }
        #expect(departments == [Department(budget: Decimal(string: "1000.5"), name: "Research")])
        #expect(
            employees == [
                Employee(firstName: "Ada", hireDate: hired, lastName: "Lovelace", salary: 10),
                Employee(firstName: "Alan", lastName: "Turing", nickName: "A", salary: 20),
            ])
        #expect(test == TestEntity(boolean: true, integer16: -3, uri: URL(string: "https://x.example")))
        let department = try db.perform { ctx in try ctx.fetchOne(Employee.all.where(\Employee.nickName == "A"))?.department?.decode(\.name) }
        #expect(department == "Research")
    }

    /// The Media model of the generator test, built here: Item (abstract) ← Album, Album.tracks
    /// ordered ↔ Track.album.
    private var mediaModel: ManagedObjectModel {
        var item = ModelBuilder.entity(
            "Item",
            [
                ModelBuilder.attribute("title", .string, required: true, defaultValue: "Untitled"),
                ModelBuilder.attribute("default", .integer16, required: true, defaultValue: "5"),
            ])
        item.isAbstract = true
        var album = ModelBuilder.entity(
            "Album",
            [
                ModelBuilder.attribute("trackCount", .integer16, required: true), ModelBuilder.attribute("rating", .double, required: true),
                ModelBuilder.attribute("price", .decimal, required: true), ModelBuilder.attribute("link", .uri, required: true),
                ModelBuilder.attribute("flag", .boolean, required: true), ModelBuilder.attribute("cover", .binaryData, required: true),
                ModelBuilder.attribute("added", .date, required: true), ModelBuilder.attribute("key", .uuid, required: true),
            ])
        album.parentEntityName = "Item"
        var entities = [ModelBuilder.entity("Track", [ModelBuilder.attribute("name", .string)]), item, album]
        ModelBuilder.relate(&entities, "Album", "tracks", toMany: true, ordered: true, "Track", "album")
        return ManagedObjectModel(entities: entities)
    }

    @Test func mediaStructsWithInheritanceAndOrderedTracks() throws {
        let db = try TestStores.sworm(mediaModel)
        let album = Album(title: "Blue", default: 7, trackCount: 2, link: URL(string: "https://music.example/blue"), cover: Data([1]))
        try db.perform { ctx in
            let object = try ctx.insert(album)
            for name in ["b-side", "a-side"] { object.tracks.add(try ctx.insert(Track(name: name))) }
        }
        let (albums, items, tracks) = try db.perform { ctx in
            (
                try ctx.fetch(Album.all).map { try $0.decode() },
                try ctx.fetch(Item.all).map { try $0.decode() },
                try #require(try ctx.fetchOne(Album.all)).tracks.map { try $0.decode(\.name) }
            )
        }
        #expect(albums == [album])
        #expect(items == [Item(title: "Blue", default: 7)])
        #expect(tracks == ["b-side", "a-side"])
    }
}
