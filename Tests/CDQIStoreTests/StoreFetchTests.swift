import CDQIModel
import CDQIPredicate
import CDQIStore
import Foundation
import Testing

/// Fetches through the SQL compiler on hand-made data: sub-entities, ordering, windows, errors, and
/// hostile values that must stay data.
@Suite("Store fetches")
struct StoreFetchTests {
    /// A Library store: Item (abstract) → Book, Media → Album; Shelf with ordered items; Tag.
    private func library() throws -> SQLiteStore {
        let store = try SQLiteStore(model: try StoreTestSupport.fixtureModel("Library"), url: nil)
        // Entity numbers: Item 1, Book 2, Media 3, Album 4, Shelf 5, Tag 6.
        try store.connection.execute(
            """
            INSERT INTO ZSHELF (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 5, 1, 'Fiction'), (2, 5, 1, 'Music');
            INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZISBN, ZDURATION, ZTRACKCOUNT, ZSHELF, ZCREATEDAT) VALUES
                (1, 2, 1, 'banana', '0000000001', NULL, NULL, 1, 10),
                (2, 2, 1, 'Apple', '0000000002', NULL, NULL, 1, 20),
                (3, 4, 1, 'cherry', NULL, 61.5, 12, 2, 30),
                (4, 3, 1, 'apple', NULL, 3.0, NULL, NULL, 40),
                (5, 4, 1, 'file10', NULL, NULL, 3, 2, 50),
                (6, 4, 1, 'file9', NULL, 1.0, 9, NULL, 60);
            INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 6, 1, 'red'), (2, 6, 1, 'blue');
            INSERT INTO Z_1TAGS (Z_1ITEMS, Z_6TAGS) VALUES (1, 1), (3, 1), (3, 2), (5, 2);
            """)
        return store
    }

    /// The keys a fetch returns, in its order.
    private func keys(_ store: SQLiteStore, _ request: FetchRequest) throws -> [Int64] {
        try store.fetchObjectReferences(request).compactMap(Self.key)
    }

    /// The keys an unsorted fetch returns, in ascending order (without sort descriptors the store's
    /// order is unspecified, as in Core Data).
    private func unsortedKeys(_ store: SQLiteStore, _ request: FetchRequest) throws -> [Int64] {
        try keys(store, request).sorted()
    }

    private static func key(_ reference: ObjectReference) -> Int64? {
        if case .primaryKey(let key) = reference.identity { return key }
        return nil
    }

    @Test("an entity's fetch includes its sub-entities, and only them")
    func subentities() throws {
        let store = try library()
        #expect(try unsortedKeys(store, FetchRequest(entityName: "Item")) == [1, 2, 3, 4, 5, 6])
        #expect(try unsortedKeys(store, FetchRequest(entityName: "Book")) == [1, 2])
        #expect(try unsortedKeys(store, FetchRequest(entityName: "Media")) == [3, 4, 5, 6])
        #expect(try unsortedKeys(store, FetchRequest(entityName: "Media", includesSubentities: false)) == [4])
        #expect(try unsortedKeys(store, FetchRequest(entityName: "Album")) == [3, 5, 6])
        #expect(try store.count(FetchRequest(entityName: "Media")) == 4)
        let references = try store.fetchObjectReferences(FetchRequest(entityName: "Media"))
            .sorted { (Self.key($0) ?? 0) < (Self.key($1) ?? 0) }
        #expect(references.map(\.entityName) == ["Album", "Media", "Album", "Album"])
        #expect(references.allSatisfy { $0.storeIdentifier == store.metadata.uuid })
    }

    @Test("sort descriptors with each comparison, to-one paths, nil first, and windows")
    func ordering() throws {
        let store = try library()
        func sorted(_ comparison: FetchSortDescriptor.Comparison, ascending: Bool = true) throws -> [Int64] {
            try keys(
                store,
                FetchRequest(
                    entityName: "Item", sortDescriptors: [FetchSortDescriptor(keyPath: "title", ascending: ascending, comparison: comparison)]))
        }
        // Titles: 1 banana, 2 Apple, 3 cherry, 4 apple, 5 file10, 6 file9.
        #expect(try sorted(.compare) == [2, 4, 1, 3, 5, 6])  // code points: "Apple" < "apple" < "banana" < …
        #expect(try sorted(.compare, ascending: false) == [6, 5, 3, 1, 4, 2])
        #expect(try sorted(.caseInsensitiveCompare) == [2, 4, 1, 3, 5, 6])  // tie "Apple"/"apple" broken by Z_PK
        #expect(try sorted(.localizedStandardCompare).suffix(2) == [6, 5])  // file9 before file10
        // nil sorts first ascending: Media durations nil (5), 1.0 (6), 3.0 (4), 61.5 (3).
        #expect(
            try keys(store, FetchRequest(entityName: "Media", sortDescriptors: [FetchSortDescriptor(keyPath: "duration")]))
                == [5, 6, 4, 3])
        // Through a to-one: shelf names nil (4, 6), Fiction (1, 2), Music (3, 5); then title descending.
        let byShelf = FetchRequest(
            entityName: "Item",
            sortDescriptors: [
                FetchSortDescriptor(keyPath: "shelf.name"), FetchSortDescriptor(keyPath: "title", ascending: false),
            ])
        #expect(try keys(store, byShelf) == [6, 4, 1, 2, 5, 3])
        var window = byShelf
        window.fetchOffset = 2
        window.fetchLimit = 3
        #expect(try keys(store, window) == [1, 2, 5])
        window.fetchLimit = 0
        #expect(try keys(store, window) == [1, 2, 5, 3])
        #expect(try store.count(window) == 4)  // a count counts what the fetch returns: rows 3 to 6
    }

    @Test("predicates over inherited attributes, ordered and many-to-many relationships")
    func predicates() throws {
        let store = try library()
        func matching(_ entity: String, _ format: String, _ arguments: Any?...) throws -> [Int64] {
            try unsortedKeys(store, FetchRequest(entityName: entity, predicate: try PredicateNode(format: format, argumentArray: arguments)))
        }
        #expect(try matching("Album", "trackCount > 5 AND title BEGINSWITH[c] 'F'") == [6])
        #expect(try matching("Item", "ANY tags.name == 'blue'") == [3, 5])
        #expect(try matching("Item", "tags.@count == 0") == [2, 4, 6])
        #expect(try matching("Tag", "ANY items.title LIKE[c] 'ch*'") == [1, 2])
        #expect(try matching("Tag", "SUBQUERY(items, $i, $i.shelf.name == 'Music').@count == 2") == [2])
        #expect(try matching("Shelf", "items.@max.createdAt > %@", Date(timeIntervalSinceReferenceDate: 20)) == [2])
        #expect(try matching("Shelf", "ALL items.title MATCHES '[a-z].*'") == [2])
        #expect(try matching("Item", "shelf == nil") == [4, 6])
        #expect(try matching("Item", "shelf.name != 'Music'") == [1, 2, 4, 6])
    }

    @Test("predicates the SQL compiler refuses name the problem")
    func refusals() throws {
        let store = try library()
        func error(_ entity: String, _ format: String) throws -> PredicateSQLError? {
            do {
                _ = try store.fetchObjectReferences(FetchRequest(entityName: entity, predicate: try PredicateNode(format: format)))
                return nil
            } catch let error as PredicateSQLError {
                return error
            }
        }
        #expect(try error("Item", "isbn == '1'") == .unknownKey(key: "isbn", entity: "Item", keyPath: "isbn"))
        #expect(try error("Book", "shelf.colour == 'red'") == .unknownKey(key: "colour", entity: "Shelf", keyPath: "shelf.colour"))
        #expect(try error("Item", "tags.name == 'red'") == .toManyKeyNotAllowed(keyPath: "tags.name"))
        // ANY on a single value is the plain comparison (§3.7); only a literal collection is refused.
        #expect(try error("Item", "ANY title == 'x'") == nil)
        let literal = try error("Item", "ANY {'a', 'b'} == 'x'")
        if case .modifierNeedsToMany = literal {} else { Issue.record("ANY on a literal collection: \(String(describing: literal))") }
        #expect(try error("Shelf", "ANY items.tags.name == 'x'") == .multipleToManySteps(keyPath: "items.tags.name"))
        #expect(
            try error("Item", "title.length == 3")
                == .typeMismatch(
                    expression: "title.length", reason: "'title' is an attribute; no key can follow it"))
        #expect(try error("Item", "FUNCTION(title, 'uppercaseString') == 'A'") != nil)
    }

    @Test("hostile values and keys stay data: quotes and SQL fragments are stored and matched literally")
    func hostileInput() throws {
        let store = try SQLiteStore(model: try StoreTestSupport.fixtureModel("Company"), url: nil)
        let hostile = ["Robert'); DROP TABLE ZEMPLOYEE;--", "\" OR 1=1 --", "x' OR 'a'='a", "%_*?\\", "\u{0}nul"]
        let insert = try store.connection.prepare(
            "INSERT INTO ZEMPLOYEE (Z_PK, Z_ENT, Z_OPT, ZFIRSTNAME, ZLASTNAME) VALUES (?, 2, 1, ?, 'x')")
        for (index, name) in hostile.enumerated() {
            try insert.bind([.integer(Int64(index + 1)), .string(name)])
            try insert.run()
        }
        for (index, name) in hostile.enumerated() {
            let request = FetchRequest(entityName: "Employee", predicate: try PredicateNode(format: "%K == %@", "firstName", name))
            let found = try store.fetchObjectReferences(request)
            #expect(found.map(\.identity) == [.primaryKey(Int64(index + 1))], "\(name)")
        }
        // A key that is not a property never reaches SQL.
        let injected = FetchRequest(
            entityName: "Employee", predicate: try PredicateNode(format: "%K == 1", "firstName == 'a' OR 1"))
        #expect(throws: PredicateSQLError.self) { try store.fetchObjectReferences(injected) }
        #expect(try store.rowCount(of: "Employee") == hostile.count)
    }

    @Test("one compiled shape serves requests with other constants; a constant of another class compiles anew")
    func compiledShapes() throws {
        let store = try library()
        func titles(_ format: String, _ arguments: Any?...) throws -> [Int64] {
            try unsortedKeys(store, FetchRequest(entityName: "Item", predicate: try PredicateNode(format: format, argumentArray: arguments)))
        }
        #expect(try titles("title ==[c] %@", "APPLE") == [2, 4])
        #expect(store.compiledFetchCount == 1)
        #expect(try titles("title ==[c] %@", "Banana") == [1])  // the folding applies to the new constant
        #expect(try titles("title ==[c] %@", "cherry") == [3])
        #expect(store.compiledFetchCount == 1)
        #expect(try titles("title ==[c] %@", nil) == [])  // nil is another class: IS NULL
        #expect(store.compiledFetchCount == 2)
        #expect(try titles("title ==[c] %@", 5) == [])  // a number never equals a string
        #expect(store.compiledFetchCount == 3)
        let shelf = ObjectReference(entityName: "Shelf", storeIdentifier: store.metadata.uuid, identity: .primaryKey(2))
        let otherShelf = ObjectReference(entityName: "Shelf", storeIdentifier: store.metadata.uuid, identity: .primaryKey(1))
        #expect(try titles("shelf == %@", shelf) == [3, 5])
        #expect(try titles("shelf == %@", otherShelf) == [1, 2])
        let elsewhere = ObjectReference(entityName: "Shelf", storeIdentifier: "another store", identity: .primaryKey(1))
        #expect(try titles("shelf == %@", elsewhere) == [])
        var window = FetchRequest(entityName: "Item", sortDescriptors: [FetchSortDescriptor(keyPath: "title")], fetchLimit: 2)
        #expect(try keys(store, window) == [2, 4])
        window.fetchOffset = 2
        #expect(try keys(store, window) == [1, 3])  // same shape, new window values
    }
}
