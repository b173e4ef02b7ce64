import CDQIStore
import Query
import Testing

/// `order(by:)`: string comparisons by selector, on the names "item10", "Item1", "apple", "item2",
/// "Banana". Worked out by hand:
/// - code points (`.none`): uppercase before lowercase, digits one by one: Banana, Item1, apple, item10, item2;
/// - case-insensitive: apple, Banana, Item1, item10, item2;
/// - localized standard (digit runs as numbers): apple, Banana, Item1, item2, item10.
@Suite("Ordering")
struct OrderTests {
    static func query(saved: Bool) throws -> Query<Entity> {
        let container = try EntityModel.container()
        let context = container.newContext()
        for (quantity, name) in ["item10", "Item1", "apple", "item2", "Banana"].enumerated() {
            let entity = try context.insert(Entity.self)
            entity.name = name
            entity.quantity = Int32(quantity)
        }
        if saved {
            try context.save()
            return Entity.query(in: container.newContext())
        }
        return Entity.query(in: context)
    }

    static func names(_ query: Query<Entity>) throws -> [String] { try query.all().map { $0.name ?? "" } }

    @Test("the three selectors, both directions", arguments: [true, false])
    func selectors(saved: Bool) throws {
        let query = try Self.query(saved: saved)
        #expect(try Self.names(query.order(by: .name)) == ["Banana", "Item1", "apple", "item10", "item2"])
        #expect(
            try Self.names(query.order(by: .name, .ascending, .localizedCaseInsensitive))
                == ["apple", "Banana", "Item1", "item10", "item2"])
        #expect(
            try Self.names(query.order(by: "name", .ascending, .localizedStandard))
                == ["apple", "Banana", "Item1", "item2", "item10"])
        #expect(
            try Self.names(query.order(by: "name", .descending, .localizedStandard))
                == ["item10", "item2", "Item1", "Banana", "apple"])
        #expect(try Self.names(query.order(by: .name, .descending)) == ["item2", "item10", "apple", "Item1", "Banana"])
    }

    @Test("a second key breaks ties of the first", arguments: [true, false])
    func twoKeys(saved: Bool) throws {
        let query = try Self.query(saved: saved)
        // quantity: item10 0, Item1 1, apple 2, item2 3, Banana 4; "quantity < 2" first (false < true).
        let names = try Self.names(query.order(by: "name", .ascending, .localizedCaseInsensitive).order(by: .quantity))
        #expect(names == ["apple", "Banana", "Item1", "item10", "item2"])
    }
}
