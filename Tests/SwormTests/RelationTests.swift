import Foundation
import Sworm
import Testing

/// To-one, to-many and ordered to-many relations: get, set, add, remove, delete.
@Suite struct RelationTests {
    private typealias Book = BookLibrary.Book
    private typealias Cover = BookLibrary.Cover
    private typealias Review = BookLibrary.Review
    private typealias Author = BookLibrary.Author

    @Test func toOneSetEncodesIntoTheCurrentDestinationAndNilDeletesIt() throws {
        let db = try TestStores.sworm(FixtureModels.library)
        let first = URL(string: "https://covers.example/1")!
        let second = URL(string: "https://covers.example/2")!
        try db.perform { ctx in
            let book = try ctx.insert(Book(name: "b"))
            try book.set(\.cover, value: Cover(url: first), context: ctx)
        }
        #expect(try db.perform { ctx in try ctx.fetchOne(Book.all)?.cover?.decode().url } == first)
        try db.perform { ctx in
            try #require(try ctx.fetchOne(Book.all)).set(\.cover, value: Cover(url: second), context: ctx)
        }
        // Encoded into the same cover: still one.
        #expect(try db.perform { ctx in try ctx.fetch(Cover.all, \.url) } == [second])
        try db.perform { ctx in
            try #require(try ctx.fetchOne(Book.all)).set(\.cover, value: nil, context: ctx)
        }
        #expect(try db.perform { ctx in try ctx.count(of: Cover.all) } == 0)
        #expect(try db.perform { ctx in try ctx.fetchOne(Book.all)?.cover == nil })
    }

    @Test func toOneThroughTheDynamicMember() throws {
        let db = try TestStores.sworm(FixtureModels.library)
        try db.perform { ctx in
            let book = try ctx.insert(Book(name: "b"))
            book.cover = try ctx.insert(Cover(url: URL(string: "https://x.example")))
        }
        #expect(try db.perform { ctx in try ctx.fetchOne(Cover.all)?.decode().url } == URL(string: "https://x.example"))
        try db.perform { ctx in
            try #require(try ctx.fetchOne(Book.all)).delete(\.cover, context: ctx)
        }
        #expect(try db.perform { ctx in try ctx.count(of: Cover.all) } == 0)
        // Clearing the relation keeps the destination.
        try db.perform { ctx in
            let book = try #require(try ctx.fetchOne(Book.all))
            book.cover = try ctx.insert(Cover(url: nil))
        }
        try db.perform { ctx in try #require(try ctx.fetchOne(Book.all)).cover = nil }
        #expect(try db.perform { ctx in try ctx.count(of: Cover.all) } == 1)
    }

    @Test func orderedToManyKeepsInsertionOrder() throws {
        let db = try TestStores.sworm(FixtureModels.library)
        try db.perform { ctx in
            let book = try ctx.insert(Book(name: "b"))
            for text in ["r3", "r1", "r2"] { book.reviews.add(try ctx.insert(Review(text: text))) }
        }
        func texts() throws -> [String] {
            try db.perform { ctx in try #require(try ctx.fetchOne(Book.all)).reviews.map { try $0.decode(\.text) } }
        }
        #expect(try texts() == ["r3", "r1", "r2"])
        try db.perform { ctx in
            let reviews = try #require(try ctx.fetchOne(Book.all)).reviews
            let r1 = try #require(reviews.first { try $0.decode(\.text) == "r1" })
            reviews.remove(r1)
        }
        #expect(try texts() == ["r3", "r2"])
        // Removed, not deleted.
        #expect(try db.perform { ctx in try ctx.count(of: Review.all) } == 3)
        try db.perform { ctx in
            let reviews = try #require(try ctx.fetchOne(Book.all)).reviews
            let r3 = try #require(reviews.first { try $0.decode(\.text) == "r3" })
            reviews.delete(r3, context: ctx)
        }
        #expect(try texts() == ["r2"])
        #expect(try db.perform { ctx in try ctx.fetch(Review.all.sort(\.text), \.text) } == ["r1", "r2"])
    }

    @Test func toManyAddRemoveDeleteAndInverse() throws {
        let db = try TestStores.sworm(FixtureModels.library)
        try db.perform { ctx in
            let book = try ctx.insert(Book(name: "b"))
            book.authors.add(try ctx.insert(Author(name: "x")))
            book.authors.add(try ctx.insert(Author(name: "y")))
        }
        #expect(
            try db.perform { ctx in
                try #require(try ctx.fetchOne(Book.all)).authors.map { try $0.decode(\.name) }.sorted()
            } == ["x", "y"])
        // The inverse was set.
        #expect(
            try db.perform { ctx in
                try #require(try ctx.fetchOne(Author.all.where(\Author.name == "x"))).books.map { try $0.decode(\.name) }
            } == ["b"])
        try db.perform { ctx in
            let authors = try #require(try ctx.fetchOne(Book.all)).authors
            let x = try #require(authors.first { try $0.decode(\.name) == "x" })
            let y = try #require(authors.first { try $0.decode(\.name) == "y" })
            authors.remove(x)
            authors.delete(y, context: ctx)
        }
        #expect(try db.perform { ctx in try #require(try ctx.fetchOne(Book.all)).authors.map { $0 }.count } == 0)
        #expect(try db.perform { ctx in try ctx.fetch(Author.all, \.name) } == ["x"])
    }

    @Test func cascadeDeletesCoverAndReviews() throws {
        let db = try TestStores.sworm(FixtureModels.library)
        try db.perform { ctx in
            let book = try ctx.insert(Book(name: "b"))
            try book.set(\.cover, value: Cover(url: nil), context: ctx)
            book.reviews.add(try ctx.insert(Review(text: "r")))
        }
        try db.perform { ctx in try ctx.delete(Book.all) }
        #expect(try db.perform { ctx in try ctx.count(of: Cover.all) + ctx.count(of: Review.all) } == 0)
    }

    @Test func objectsOfAnotherContextAreRefusedByPerform() throws {
        let db = try TestStores.sworm(FixtureModels.library)
        try db.perform { ctx in try ctx.insert(Book(name: "b")) }
        let foreign = try db.perform(action: { ctx in try #require(try ctx.fetchOne(Book.all)) })
        // The escaped wrapper's context was reset: using it in another perform throws instead of saving.
        #expect(throws: (any Error).self) {
            try db.perform { ctx in
                let author = try ctx.insert(Author(name: "a"))
                author.books.add(foreign)
            }
        }
        #expect(try db.perform { ctx in try ctx.count(of: Author.all) } == 0)
    }
}
