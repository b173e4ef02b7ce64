import CDQIStore
import Foundation
import Query
import Testing

/// Every example of lightyear/Query's README, as written there with only `NSManagedObject` →
/// `ManagedObject` and `NSManagedObjectContext` → `ManagedObjectContext`, run against
/// ``ReadmeData`` (answers worked out by hand in its comment).
@Suite("lightyear/Query README examples")
struct ReadmeExampleTests {
    @Test("Usage: where(\"quantity == 1\").order(by: \"date\").all()")
    func usageWithStrings() throws {
        let someManagedObjectContext: ManagedObjectContext = try ReadmeData.context()
        let result = try Entity.query(in: someManagedObjectContext)
            .where("quantity == 1")
            .order(by: "date")
            .all()
        #expect(ReadmeData.labels(result) == ["Carol/1", "Alice/1"])
    }

    @Test("Usage: where([.quantity: 1]).order(by: .date).all()")
    func usageWithAttributes() throws {
        let someManagedObjectContext: ManagedObjectContext = try ReadmeData.context()
        let result = try Entity.query(in: someManagedObjectContext)
            .where([.quantity: 1])
            .order(by: .date)
            .all()
        #expect(ReadmeData.labels(result) == ["Carol/1", "Alice/1"])
    }

    @Test("Predicates: the six where forms")
    func whereForms() throws {
        let query = Entity.query(in: try ReadmeData.context())
        #expect(ReadmeData.sortedLabels(try query.where("quantity == 1").all()) == ["Alice/1", "Carol/1"])
        #expect(ReadmeData.sortedLabels(try query.where("quantity == %d", 1).all()) == ["Alice/1", "Carol/1"])
        #expect(ReadmeData.sortedLabels(try query.where("name == %@", "Alice").all()) == ["Alice/1", "Alice/3"])
        #expect(ReadmeData.sortedLabels(try query.where("%K == %@", "name", "Alice").all()) == ["Alice/1", "Alice/3"])
        #expect(ReadmeData.sortedLabels(try query.where([.quantity: 1]).all()) == ["Alice/1", "Carol/1"])
        #expect(ReadmeData.sortedLabels(try query.where([.name: "Alice"]).all()) == ["Alice/1", "Alice/3"])
    }

    @Test("Chained where calls combine with AND")
    func chainedWhere() throws {
        let query = Entity.query(in: try ReadmeData.context())
        let chained = try query.where("quantity == 1").where("name == %@", "Alice").all()
        let single = try query.where("quantity == 1 AND name == %@", "Alice").all()
        #expect(ReadmeData.labels(chained) == ["Alice/1"])
        #expect(ReadmeData.labels(single) == ["Alice/1"])
    }

    @Test("or: where(\"quantity == 1\").or(\"name == %@\", \"Alice\")")
    func or() throws {
        let query = Entity.query(in: try ReadmeData.context())
        let ored = try query.where("quantity == 1").or("name == %@", "Alice").all()
        let single = try query.where("quantity == 1 OR name == %@", "Alice").all()
        #expect(ReadmeData.sortedLabels(ored) == ["Alice/1", "Alice/3", "Carol/1"])
        #expect(ReadmeData.sortedLabels(single) == ["Alice/1", "Alice/3", "Carol/1"])
    }

    @Test("or treats everything before it as parenthesized")
    func orGrouping() throws {
        let query = Entity.query(in: try ReadmeData.context())
        let ored = try query.where("quantity == 1").where("name == %@", "Alice").or("name == %@", "Bob").all()
        let single = try query.where("(quantity == 1 AND name == %@) OR name == %@", "Alice", "Bob").all()
        #expect(ReadmeData.sortedLabels(ored) == ["Alice/1", "Bob/2"])
        #expect(ReadmeData.sortedLabels(single) == ["Alice/1", "Bob/2"])
    }

    @Test("Inequality and range wrappers in the dictionary forms")
    func inequalityAndRange() throws {
        let query = Entity.query(in: try ReadmeData.context())
        #expect(ReadmeData.labels(try query.where([.quantity: lt(1)]).all()) == ["Dave/0"])
        #expect(ReadmeData.labels(try query.where("quantity < 1").all()) == ["Dave/0"])
        let range = try query.where([.quantity: 1...3]).all()
        #expect(ReadmeData.sortedLabels(range) == ["Alice/1", "Alice/3", "Bob/2", "Carol/1"])
        // The README's "quantity BETWEEN (1,3)" is not predicate syntax (on Apple platforms either):
        // the bounds are an aggregate, `{1, 3}`.
        let between = try query.where("quantity BETWEEN {1, 3}").all()
        #expect(ReadmeData.sortedLabels(between) == ["Alice/1", "Alice/3", "Bob/2", "Carol/1"])
    }

    @Test("Ordering: two keys, descending, case-insensitive and localized")
    func ordering() throws {
        let query = Entity.query(in: try ReadmeData.context())
        let byDepartment = try query.order(by: "department").order(by: "name").all()
        #expect(byDepartment.map { $0.name ?? "" } == ["Bob", "Carol", "Alice", "Alice", "Dave"])
        let descending = try query.order(by: "quantity", .descending).all()
        #expect(descending.map(\.quantity) == [3, 2, 1, 1, 0])
        let caseInsensitive = try query.order(by: "name", .ascending, .localizedCaseInsensitive).all()
        #expect(caseInsensitive.map { $0.name ?? "" } == ["Alice", "Alice", "Bob", "Carol", "Dave"])
        let standard = try query.order(by: "name", .ascending, .localizedStandard).all()
        #expect(standard.map { $0.name ?? "" } == ["Alice", "Alice", "Bob", "Carol", "Dave"])
    }

    @Test("Fetching: all, first, count, firstOrInsert")
    func fetching() throws {
        let context = try ReadmeData.context()
        let query = Entity.query(in: context).where("quantity == 1").order(by: "date")
        #expect(ReadmeData.labels(try query.all()) == ["Carol/1", "Alice/1"])
        #expect(try query.first()?.name == "Carol")
        #expect(try query.count() == 2)
        let existing = try Entity.query(in: context).where([.name: "Bob"]).firstOrInsert()
        #expect(existing.quantity == 2)
        #expect(!existing.isInserted)
        let new = try Entity.query(in: context).where([.name: "Eve", .quantity: 7]).firstOrInsert()
        #expect(new.isInserted)
        #expect(new.name == "Eve" && new.quantity == 7)
        #expect(try Entity.query(in: context).count() == 6)
        #expect(throws: QueryError.self) { try Entity.query(in: context).where([.quantity: lt(1)]).firstOrInsert() }
    }

    @Test("The underlying fetch request")
    func underlyingFetchRequest() throws {
        let context = try ReadmeData.context()
        var request = try Entity.query(in: context).where("quantity == 1").order(by: "date").fetchRequest
        #expect(request.entityName == "Entity")
        #expect(request.predicate?.predicateFormat == "quantity == 1")
        #expect(request.sortDescriptors == [FetchSortDescriptor(keyPath: "date")])
        request.fetchOffset = 1
        #expect(try context.fetch(request).compactMap { ($0 as? Entity)?.name } == ["Alice"])
    }

    @Test("Identifiable managed objects: exists, fetch, fetchOrInsert")
    func identifiable() throws {
        let context = try ReadmeData.context()
        let bob = try #require(try Entity.query(in: context).where([.name: "Bob"]).first())
        let bobID = try #require(bob.id)
        let query = Entity.query(in: context)
        #expect(try query.exists(bobID))
        #expect(try query.fetch(bobID) === bob)
        #expect(try query.fetchOrInsert(bobID) === bob)
        let unknown = UUID()
        #expect(try !query.exists(unknown))
        #expect(try query.fetch(unknown) == nil)
        let inserted = try query.fetchOrInsert(unknown)
        #expect(inserted.id == unknown)
        #expect(inserted.isInserted)
        #expect(try query.exists(unknown))
    }
}
