import Foundation
import Sworm
import Testing

// Every example of Sworm's guides (docs/queries.md, basic_usage.md, read_write.md, setup_pc.md), with
// only the type substitutions (Apple's containers for ours). This file imports only Foundation and
// Sworm, as a user's file would. Expected values are worked out by hand from the rows below.

/// Six rows of `T`: (id, count, date, name, marker, amount); `past`/`future` are a year before/after now.
private func insertGuideRows(_ db: PersistentContainer) throws {
    let past = Date(timeIntervalSinceNow: -365 * 86_400)
    let future = Date(timeIntervalSinceNow: 365 * 86_400)
    let rows = [
        T(count: 10, date: past, id: 1, name: "alex", marker: "a", amount: 5),
        T(count: 3, date: nil, id: 2, name: "rex", marker: "b", amount: 20),
        T(count: 4, date: future, id: 3, name: "bob", marker: "d", amount: 1),
        T(count: 5, date: future, id: 4, name: "tex", marker: "c", amount: 2),
        T(count: 6, date: future, id: 5, name: "dex", marker: "e", amount: 11),
        T(count: 7, date: past, id: 6, name: "ana foó", marker: "d", amount: 0),
    ]
    try db.perform { ctx in
        for row in rows { try ctx.insert(row) }
    }
}

private func ids(_ db: PersistentContainer, _ predicate: Sworm.Predicate) throws -> [Int] {
    try db.perform { ctx in try ctx.fetch(T.all.where(predicate).sort(\.id), \.id) }
}

@Suite struct GuideExampleTests {
    @Test func firstPredicateExample() throws {
        let db = try TestStores.sworm(FixtureModels.guide)
        try insertGuideRows(db)
        let predicate = \T.count == 10 || \T.date > Date() && !(\T.id === [1, 2, 3])
        #expect(predicate.predicateDescriptor.query == "(count == %@) OR ((date > %@) AND (NOT (id IN %@)))")
        // count 10: row 1; a future date and id not in 1...3: rows 4 and 5.
        #expect(try ids(db, predicate) == [1, 4, 5])
    }

    @Test func textQueryExample() throws {
        let db = try TestStores.sworm(FixtureModels.guide)
        try insertGuideRows(db)
        let predicate = \T.count == 10 || Query.endsWith(\T.name, "foo")
        #expect(predicate.predicateDescriptor.query == "(count == %@) OR (name ENDSWITH[cd] %@)")
        // Row 1 by count; row 6 ("ana foó") because [cd] ignores the accent.
        #expect(try ids(db, predicate) == [1, 6])
    }

    @Test func rawStringMixedIn() throws {
        let db = try TestStores.sworm(FixtureModels.guide)
        try insertGuideRows(db)
        // Row 4's foo has no bars, row 5's foo has two.
        try db.perform { ctx in
            let four = try #require(try ctx.fetchOne(T.all.where(\T.id == 4)))
            let five = try #require(try ctx.fetchOne(T.all.where(\T.id == 5)))
            four.foo = try ctx.insert(Foo(name: "empty"))
            five.foo = try ctx.insert(Foo(name: "full"))
            let bars = try #require(five.foo).bars
            bars.add(try ctx.insert(Bar(name: "b1")))
            bars.add(try ctx.insert(Bar(name: "b2")))
        }
        let predicate = \T.id == 4 && !"foo.bars.@count > 0"
        #expect(predicate.predicateDescriptor.query == "(id == %@) AND (NOT (foo.bars.@count > 0))")
        #expect(try ids(db, predicate) == [4])
        #expect(try ids(db, \T.id == 5 && !"foo.bars.@count > 0") == [])
    }

    @Test func sortingExample() throws {
        let db = try TestStores.sworm(FixtureModels.guide)
        try db.perform { ctx in
            for (name, age) in [("b", 30), ("a", 20), ("b", 40), ("a", 50)] {
                try ctx.insert(Author(name: name, age: age))
            }
        }
        let query = Author
            .all
            .sort(\.name, ascending: true)
            .sort(\.age, ascending: false)
        let result = try db.perform { ctx in try ctx.fetch(query).map { try $0.decode() } }
        #expect(result.map { "\($0.name)\($0.age)" } == ["a50", "a20", "b40", "b30"])
    }

    @Test func completeQueryExample() throws {
        let db = try TestStores.sworm(FixtureModels.guide)
        try insertGuideRows(db)
        let query = T
            .all
            .where(\T.marker === ["a", "d"] || \T.amount > 10 || Query.endsWith(\T.name, "ex"))
            .sort(\.name)
            .limit(5)

        let result = try db.perform { ctx in
            try ctx.fetch(query).map { try $0.decode() }
        }
        // All six match (markers a, d, d; amounts 20, 11; names ending in "ex"); by name:
        // alex, ana foó, bob, dex, rex, tex; the first five.
        #expect(result.map(\.name) == ["alex", "ana foó", "bob", "dex", "rex"])
        #expect(result.map(\.id) == [1, 6, 3, 5, 2])
    }

    @Test func basicUsageDataLayer() throws {
        /// docs/basic_usage.md step 5, with our container for Apple's.
        final class DataLayer {
            private let db: PersistentContainer

            init() throws {
                let pc = try TestStores.store(FixtureModels.guide)
                self.db = .init(managedObjectContext: pc.newContext)
            }

            func allBooks() throws -> [Book] {
                try self.db.perform { ctx in
                    try ctx.fetch(Book.all).map { try $0.decode() }
                }
            }

            func insert(book: Book) throws {
                try self.db.perform { ctx in
                    try ctx.insert(book)
                }
            }
        }

        let layer = try DataLayer()
        let book = Book(id: .init(), name: "best book", date: Date())
        try layer.insert(book: book)
        let books = try layer.allBooks()
        #expect(books == [book])
    }

    @Test func readWriteExamples() throws {
        let pc = try TestStores.sworm(FixtureModels.guide)
        let author = Author(name: "author")
        let book1 = Book(name: "book 1")
        let book2 = Book(name: "book 2")

        try pc.perform { ctx in
            let authorObject: ManagedObject<Author> = try ctx.insert(author)
            let bookObjects: ManagedObjectSet<Book> = authorObject.books

            try bookObjects.add(ctx.insert(book1))
            try bookObjects.add(ctx.insert(book2))
        }

        let (decoded, name) = try pc.perform { ctx in
            guard let authorObject = try ctx.fetchOne(Author.all) else {
                return (Author?.none, String?.none)
            }
            let author = try authorObject.decode()
            let authorName = try authorObject.decode(\.name)
            authorObject.encode(Author(name: "foo", age: 50))
            return (author, authorName)
        }
        #expect(decoded == author)
        #expect(name == "author")

        try pc.perform { ctx in
            guard let authorObject = try ctx.fetchOne(Author.all) else { return }
            authorObject.encode(\.name, "bar")
        }
        let (after, bookNames) = try pc.perform { ctx in
            let object = try #require(try ctx.fetchOne(Author.all))
            return (try object.decode(), try object.books.map { try $0.decode(\.name) }.sorted())
        }
        #expect(after == Author(name: "bar", age: 50))
        #expect(bookNames == ["book 1", "book 2"])
    }

    @Test func scheduleExample() async throws {
        let pc = try TestStores.sworm(FixtureModels.guide)
        try await pc.schedule { ctx in
            try ctx.insert(Author(name: "async", age: 1))
        }
        let names = try await pc.schedule { ctx in try ctx.fetch(Author.all, \.name) }
        #expect(names == ["async"])
    }

    @Test func setupExamples() throws {
        // docs/setup_pc.md: a context closure that throws until the store is ready, and logError.
        let store = try TestStores.store(FixtureModels.guide)
        nonisolated(unsafe) var isReady = false
        nonisolated(unsafe) var logged: [String] = []
        struct NotReady: Error {}
        let pc = PersistentContainer(
            managedObjectContext: {
                if !isReady {
                    throw NotReady()
                }
                return store.newContext()
            },
            logError: { error in
                logged.append("\(error)")
            }
        )
        #expect(throws: NotReady.self) { try pc.perform { ctx in try ctx.count(of: Author.all) } }
        #expect(logged == ["NotReady()"])
        isReady = true
        #expect(try pc.perform { ctx in try ctx.count(of: Author.all) } == 0)
        #expect(logged.count == 1)
    }
}
