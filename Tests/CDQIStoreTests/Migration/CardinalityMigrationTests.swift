import CDQIModel
import CDQIStore
import Foundation
import Testing

/// To-one ↔ to-many: Library's one-to-many `Item.shelf` ↔ `Shelf.items` becomes many-to-many (links
/// move from the `ZSHELF` foreign key into a join table), and back (one link kept per object).
@Suite("Lightweight migration: cardinality changes")
struct CardinalityMigrationTests {
    @Test("one-to-many → many-to-many → one-to-many keeps Dune on Fiction")
    func roundTrip() throws {
        try LibraryMigrationTests.withVersion1Store { bundle, _, url in
            let oneToMany = try #require(bundle.version(named: "Library")).model
            var manyToMany = oneToMany
            let item = try #require(manyToMany.entities.firstIndex { $0.name == "Item" })
            manyToMany.entities[item].relationships[0].isToMany = true  // shelf
            manyToMany.entities[item].relationships[0].maxCount = nil
            #expect(manyToMany.entities[item].relationships[0].name == "shelf")

            let diff = ModelDiff(from: oneToMany, to: manyToMany)
            #expect(diff.changes.map(\.description) == ["make Item.shelf to-many"])
            try StoreMigration.migrateStore(at: url, from: oneToMany, to: manyToMany)
            do {
                let container = try PersistentContainer(model: manyToMany, url: url)
                let books = try container.viewContext.fetch(FetchRequest(entityName: "Book"))
                let shelves = try books.map { book in
                    (try book.value(forKey: "title") as? String ?? "", try book.objects(forKey: "shelf").map { try $0.value(forKey: "name") as? String ?? "" })
                }.sorted { $0.0 < $1.0 }
                #expect(shelves.map(\.0) == ["Dune", "Emma"])
                #expect(shelves.map(\.1) == [["Fiction"], []])
            }

            try StoreMigration.migrateStore(at: url, from: manyToMany, to: oneToMany)
            let container = try PersistentContainer(model: oneToMany, url: url)
            let books = try container.viewContext.fetch(FetchRequest(entityName: "Book"))
            let shelves = try books.map { book in
                (try book.value(forKey: "title") as? String ?? "", try book.object(forKey: "shelf")?.value(forKey: "name") as? String)
            }.sorted { $0.0 < $1.0 }
            #expect(shelves.map(\.0) == ["Dune", "Emma"])
            #expect(shelves.map(\.1) == ["Fiction", nil])
        }
    }
}
