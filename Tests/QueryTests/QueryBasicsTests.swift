import CDQIStore
import Foundation
import Query
import Testing

/// The query as a value, its entry points, its fetch request, and unsaved changes in its results.
@Suite("Query basics")
struct QueryBasicsTests {
    @Test("an Attribute case's name is the attribute's key")
    func attributeNames() {
        #expect(String(describing: Entity.Attribute.quantity) == "quantity")
        #expect(String(describing: Gadget.Attribute.label) == "label")
    }

    @Test("T.query(in:), object.query() and Query(in:) share the context")
    func entryPoints() throws {
        let context = try EntityModel.context()
        let first = try context.insert(Entity.self)
        _ = try context.insert(Entity.self)
        #expect(try Entity.query(in: context).count() == 2)
        #expect(try first.query().count() == 2)
        #expect(try first.query().context === context)
        #expect(Query<Entity>(in: context).context === context)
    }

    @Test("chaining never changes the query it starts from")
    func valueSemantics() throws {
        let context = try EntityModel.context()
        for (name, quantity) in [("a", 1), ("b", 1), ("c", 2)] {
            let entity = try context.insert(Entity.self)
            entity.name = name
            entity.quantity = Int32(quantity)
        }
        let base = Entity.query(in: context).where([.quantity: 1])
        let narrower = base.where([.name: "a"])
        let wider = base.or([.quantity: 2])
        let ordered = base.order(by: .name, .descending)
        #expect(try base.count() == 2)
        #expect(try narrower.count() == 1)
        #expect(try wider.count() == 3)
        #expect(try ordered.all().map { $0.name ?? "" } == ["b", "a"])
        #expect(try base.fetchRequest.sortDescriptors.isEmpty)
        #expect(try base.fetchRequest.predicate?.predicateFormat == "quantity == 1")
    }

    @Test("the fetch request: the entity, TRUEPREDICATE without conditions, sort keys in call order")
    func fetchRequest() throws {
        let context = try EntityModel.context()
        let empty = try Query<Entity>(in: context).fetchRequest
        #expect(empty.entityName == "Entity")
        #expect(empty.predicate?.predicateFormat == "TRUEPREDICATE")
        #expect(empty.sortDescriptors.isEmpty)
        let byString = try Entity.query(in: context).order(by: "name").order(by: "quantity", .descending).fetchRequest
        let byAttribute = try Entity.query(in: context).order(by: .name).order(by: .quantity, .descending).fetchRequest
        let expected = [FetchSortDescriptor(keyPath: "name"), FetchSortDescriptor(keyPath: "quantity", ascending: false)]
        #expect(byString.sortDescriptors == expected)
        #expect(byAttribute.sortDescriptors == expected)
        let selectors = try Entity.query(in: context)
            .order(by: .name, .ascending, .localizedStandard)
            .order(by: "department", .descending, .localizedCaseInsensitive).fetchRequest
        #expect(
            selectors.sortDescriptors == [
                FetchSortDescriptor(keyPath: "name", comparison: .localizedStandardCompare),
                FetchSortDescriptor(keyPath: "department", ascending: false, comparison: .localizedCaseInsensitiveCompare),
            ])
    }

    @Test("all, first and count see unsaved inserts, changes and deletions")
    func unsavedChanges() throws {
        let container = try EntityModel.container()
        let context = container.newContext()
        let query = Entity.query(in: context)
        #expect(try query.first() == nil)
        let one = try context.insert(Entity.self)
        one.quantity = 1
        let two = try context.insert(Entity.self)
        two.quantity = 2
        let all = try query.order(by: .quantity).all()
        #expect(all.count == 2 && all[0] === one && all[1] === two)
        #expect(try query.order(by: .quantity, .descending).first() === two)
        try context.save()
        one.quantity = 5  // changed, unsaved
        let three = try context.insert(Entity.self)
        three.quantity = 3  // inserted, unsaved
        try context.delete(two)  // deleted, unsaved
        #expect(try query.count() == 2)
        #expect(try query.where([.quantity: 5]).first() === one)
        #expect(try query.where([.quantity: 1]).count() == 0)
        #expect(try query.where([.quantity: 2]).count() == 0)
        #expect(try query.order(by: .quantity).all().map(\.quantity) == [3, 5])
    }

    @Test("a class the model names for an entity queries that entity, and inserts its objects")
    func classNamedByTheModel() throws {
        let context = try EntityModel.context()
        let gadget = try Gadget.query(in: context).where([.label: "g"]).firstOrInsert()
        #expect(gadget.entity.name == "Tool")
        #expect(try gadget.value(forKey: "label") as? String == "g")
        #expect(try Gadget.query(in: context).all().first === gadget)
    }
}
