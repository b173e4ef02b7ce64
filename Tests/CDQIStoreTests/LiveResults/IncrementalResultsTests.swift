import CDQIModel
import CDQIPredicate
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// `IncrementalResults`: the plan that says which requests can be kept up to date from change sets,
/// and the splices worked out by hand on Items ranked a 1, b 2, c 3, d 5, e -1 (`rank >= 0`, by rank:
/// a b c d; ties by primary key, so insertion order).
@Suite struct IncrementalResultsTests {
    /// Item(name, rank, owner → Other, parent → Item), Other(title, items ↔ owner).
    private static func model() -> ManagedObjectModel {
        var item = EntityDescription(name: "Item")
        item.attributes = [
            AttributeDescription(name: "name", type: .string, isOptional: true),
            AttributeDescription(name: "rank", type: .integer64, isOptional: true),
        ]
        var owner = RelationshipDescription(name: "owner", destinationEntityName: "Other")
        owner.inverseName = "items"
        owner.isOptional = true
        var parent = RelationshipDescription(name: "parent", destinationEntityName: "Item")
        parent.isOptional = true
        item.relationships = [owner, parent]
        var other = EntityDescription(name: "Other")
        other.attributes = [AttributeDescription(name: "title", type: .string, isOptional: true)]
        var items = RelationshipDescription(name: "items", destinationEntityName: "Item")
        items.inverseName = "owner"
        items.isToMany = true
        items.isOptional = true
        other.relationships = [items]
        return ManagedObjectModel(entities: [item, other])
    }

    private static func request(_ format: String = "rank >= 0", sortedBy keys: [String] = ["rank"]) throws -> FetchRequest {
        FetchRequest(
            entityName: "Item", predicate: try PredicateNode(format: format, argumentArray: []),
            sortDescriptors: keys.map { FetchSortDescriptor(keyPath: $0) })
    }

    @Test("the plan takes sorted requests over attributes and to-one paths out of the table, and refuses the rest")
    func planShapes() throws {
        let model = Self.model()
        let simple = try #require(IncrementalResultsPlan(request: try Self.request(), model: model))
        #expect(simple.dependencies.isEmpty)
        let throughOwner = try #require(
            IncrementalResultsPlan(request: try Self.request("owner.title == 'x'", sortedBy: ["owner.title", "rank"]), model: model))
        #expect(throughOwner.dependencies == ["Other"])
        var others = FetchRequest(
            entityName: "Other", predicate: try PredicateNode(format: "items.@count > 1", argumentArray: []),
            sortDescriptors: [FetchSortDescriptor(keyPath: "title")])
        #expect(try #require(IncrementalResultsPlan(request: others, model: model)).dependencies == ["Item"])
        others.entityName = "Item"
        others.predicate = try PredicateNode(format: "owner.items.@count > 1", argumentArray: [])
        others.sortDescriptors = [FetchSortDescriptor(keyPath: "rank")]
        // owner.items leads back into Item: refused.
        #expect(IncrementalResultsPlan(request: others, model: model) == nil)

        var unsorted = try Self.request()
        unsorted.sortDescriptors = []
        #expect(IncrementalResultsPlan(request: unsorted, model: model) == nil)
        var limited = try Self.request()
        limited.fetchLimit = 2
        #expect(IncrementalResultsPlan(request: limited, model: model) == nil)
        var offset = try Self.request()
        offset.fetchOffset = 1
        #expect(IncrementalResultsPlan(request: offset, model: model) == nil)
        // Into the fetched table again: one item's change can change another's result.
        #expect(IncrementalResultsPlan(request: try Self.request("parent.rank > 1"), model: model) == nil)
        #expect(IncrementalResultsPlan(request: try Self.request("SUBQUERY(owner.items, $i, $i.rank > 1).@count > 0"), model: model) == nil)
        #expect(IncrementalResultsPlan(request: try Self.request("color == 'red'"), model: model) == nil)
        // A to-many key cannot sort.
        #expect(IncrementalResultsPlan(request: try Self.request(sortedBy: ["owner.items"]), model: model) == nil)
    }

    /// Saves `body`'s changes on a context of its own and returns the IDs of the objects it returned,
    /// permanent once saved.
    @discardableResult
    private func write(
        _ coordinator: PersistentStoreCoordinator, _ body: (ManagedObjectContext) throws -> [String: ManagedObject] = { _ in [:] }
    ) throws -> [String: ManagedObjectID] {
        let context = ManagedObjectContext(coordinator: coordinator)
        let objects = try body(context)
        try context.save()
        return objects.mapValues(\.objectID)
    }

    private func names(_ ids: [ManagedObjectID], _ coordinator: PersistentStoreCoordinator) throws -> [String] {
        let context = ManagedObjectContext(coordinator: coordinator)
        return try ids.map { (try context.existingObject(with: $0).value(forKey: "name") as? String) ?? "?" }
    }

    private func insert(_ name: String, _ rank: Int64, in context: ManagedObjectContext) throws -> ManagedObject {
        let item = try context.insertNewObject(forEntityName: "Item")
        try item.setValue(name, forKey: "name")
        try item.setValue(rank, forKey: "rank")
        return item
    }

    @Test("saved changes splice in: a move, an update in place, an insert, a removal, a tie by primary key, another entity")
    func savedChanges() throws {
        let coordinator = try PersistentStoreCoordinator(model: Self.model(), url: nil)
        var ids = try write(coordinator) { context in
            var objects: [String: ManagedObject] = [:]
            for (name, rank) in [("a", 1), ("b", 2), ("c", 3), ("d", 5), ("e", -1)] as [(String, Int64)] {
                objects[name] = try insert(name, rank, in: context)
            }
            return objects
        }
        #expect(ids.values.allSatisfy { !$0.isTemporaryID })
        let plan = try #require(IncrementalResultsPlan(request: try Self.request(), model: coordinator.model))
        var results = try IncrementalResults.fetch(plan, on: ManagedObjectContext(coordinator: coordinator), tracksUnsavedChanges: false)
        #expect(try names(results.ids, coordinator) == ["a", "b", "c", "d"])

        func change(_ touched: [String], updated: [String] = []) -> IncrementalResults.Outcome {
            results.apply(
                touched: Set(touched.compactMap { ids[$0] }), updated: Set(updated.compactMap { ids[$0] }), storeOf: coordinator)
        }
        func fresh() throws -> [ManagedObjectID] { try ManagedObjectContext(coordinator: coordinator).fetchObjectIDs(plan.request) }

        // b 2 → 4: from offset 1 to 2 (after c 3, before d 5).
        try write(coordinator) { context in
            try context.existingObject(with: try #require(ids["b"])).setValue(Int64(4), forKey: "rank")
            return [:]
        }
        guard case .changed(let moved) = change(["b"], updated: ["b"]) else {
            Issue.record("b's move")
            return
        }
        #expect(try names(results.ids, coordinator) == ["a", "c", "b", "d"] && results.ids == (try fresh()))
        #expect(moved.moved.map(\.from) == [1] && moved.moved.map(\.to) == [2] && moved.removed.isEmpty && moved.inserted.isEmpty)

        // a renamed: its rank is its key, so it stays; reported as updated at offset 0.
        try write(coordinator) { context in
            try context.existingObject(with: try #require(ids["a"])).setValue("a2", forKey: "name")
            return [:]
        }
        guard case .changed(let renamed) = change(["a"], updated: ["a"]) else {
            Issue.record("a's rename")
            return
        }
        #expect(renamed.updated == [0] && renamed.moved.isEmpty && renamed.inserted.isEmpty && renamed.removed.isEmpty)

        // f 0 inserted: first. e -1 → 3: equal to c's rank, after c (lower primary key), before b 4.
        ids["f"] = try write(coordinator) { context in
            try context.existingObject(with: try #require(ids["e"])).setValue(Int64(3), forKey: "rank")
            return ["f": try insert("f", 0, in: context)]
        }["f"]
        guard case .changed(let entered) = change(["f", "e"], updated: ["e"]) else {
            Issue.record("f and e")
            return
        }
        #expect(try names(results.ids, coordinator) == ["f", "a2", "c", "e", "b", "d"] && results.ids == (try fresh()))
        #expect(entered.inserted == [0, 3] && entered.removed.isEmpty && entered.moved.isEmpty)

        // b 4 → 0: tied with f, before it (b's primary key is lower): from offset 4 to 0.
        try write(coordinator) { context in
            try context.existingObject(with: try #require(ids["b"])).setValue(Int64(0), forKey: "rank")
            return [:]
        }
        guard case .changed(let tied) = change(["b"], updated: ["b"]) else {
            Issue.record("b's tie")
            return
        }
        #expect(try names(results.ids, coordinator) == ["b", "f", "a2", "c", "e", "d"] && results.ids == (try fresh()))
        #expect(tied.moved.map(\.from) == [4] && tied.moved.map(\.to) == [0] && tied.removed.isEmpty && tied.inserted.isEmpty)

        // d deleted, c out (rank -3): offsets 5 and 3 of the list before.
        try write(coordinator) { context in
            try context.delete(try context.existingObject(with: try #require(ids["d"])))
            try context.existingObject(with: try #require(ids["c"])).setValue(Int64(-3), forKey: "rank")
            return [:]
        }
        guard case .changed(let left) = change(["d", "c"], updated: ["c"]) else {
            Issue.record("d and c")
            return
        }
        #expect(try names(results.ids, coordinator) == ["b", "f", "a2", "e"] && results.ids == (try fresh()))
        #expect(left.removed == [3, 5] && left.inserted.isEmpty && left.moved.isEmpty)

        // An Other saved: not an Item, and the request reads no Other.
        ids["o"] = try write(coordinator) { context in
            let other = try context.insertNewObject(forEntityName: "Other")
            try other.setValue("o", forKey: "title")
            return ["o": other]
        }["o"]
        guard case .unchanged = change(["o"]) else {
            Issue.record("another entity")
            return
        }
        // A touched object still out of the results changes nothing.
        guard case .unchanged = change(["c"]) else {
            Issue.record("c still out")
            return
        }
    }

    @Test("a change to an entity read through a relationship asks for a refetch and leaves the results as they were")
    func dependencyRefetches() throws {
        let coordinator = try PersistentStoreCoordinator(model: Self.model(), url: nil)
        try write(coordinator) { context in
            let other = try context.insertNewObject(forEntityName: "Other")
            try other.setValue("x", forKey: "title")
            for (name, rank) in [("a", 1), ("b", 2)] as [(String, Int64)] {
                try insert(name, rank, in: context).setValue(other, forKey: "owner")
            }
            return [:]
        }
        let plan = try #require(IncrementalResultsPlan(request: try Self.request("owner.title == 'x'"), model: coordinator.model))
        var results = try IncrementalResults.fetch(plan, on: ManagedObjectContext(coordinator: coordinator), tracksUnsavedChanges: false)
        let before = results.ids
        #expect(try names(before, coordinator) == ["a", "b"])
        let other = try #require(try ManagedObjectContext(coordinator: coordinator).fetchObjectIDs(FetchRequest(entityName: "Other")).first)
        guard case .refetch = results.apply(touched: [other], updated: [other], storeOf: coordinator) else {
            Issue.record("a change to the owner must refetch")
            return
        }
        #expect(results.ids == before)
    }

    @Test("unsaved changes of a context: an insert sorts after the saved ties, a pending delete leaves, a rollback restores")
    func unsavedChanges() throws {
        let coordinator = try PersistentStoreCoordinator(model: Self.model(), url: nil)
        try write(coordinator) { context in
            for (name, rank) in [("a", 1), ("b", 2)] as [(String, Int64)] { _ = try insert(name, rank, in: context) }
            return [:]
        }
        let context = ManagedObjectContext(coordinator: coordinator)
        let plan = try #require(IncrementalResultsPlan(request: try Self.request(), model: coordinator.model))
        var results = try IncrementalResults.fetch(plan, on: context, tracksUnsavedChanges: true)
        let saved = results.ids
        // n 1 (unsaved, temporary ID): tied with a, after it.
        let n = try insert("n", 1, in: context)
        guard case .changed(let inserted) = results.apply(touched: [n.objectID], updated: [], in: context) else {
            Issue.record("the unsaved insert")
            return
        }
        #expect(results.ids == [saved[0], n.objectID, saved[1]] && inserted.inserted == [1])
        #expect(results.ids == (try context.fetchObjectIDs(plan.request)))
        // b deleted, unsaved: out. The notification has not been read: the context's unsaved objects are.
        try context.delete(try context.existingObject(with: saved[1]))
        guard case .changed(let deleted) = results.apply(touched: [], updated: [], in: context) else {
            Issue.record("the unsaved delete")
            return
        }
        #expect(results.ids == [saved[0], n.objectID] && deleted.removed == [2])
        // Rolled back: the objects that had unsaved changes are judged again, from the store.
        context.rollback()
        guard case .changed(let restored) = results.apply(touched: [], updated: [], in: context) else {
            Issue.record("the rollback")
            return
        }
        #expect(results.ids == saved && restored.removed == [1] && restored.inserted == [1])
        #expect(results.ids == (try context.fetchObjectIDs(plan.request)))
    }
}
