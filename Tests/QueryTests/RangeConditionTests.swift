import CDQIStore
import Foundation
import Query
import Testing

/// Ranges and inequalities in the dictionary forms, on five objects (index i = 0…4):
/// quantity i, price i + 0.5, date 10·i s after 2001, name "a"…"e", cost 1.1·i (Decimal).
/// Each expectation lists the indexes worked out by hand.
@Suite("Ranges and inequalities")
struct RangeConditionTests {
    static let names = ["a", "b", "c", "d", "e"]

    static func date(_ i: Int) -> Date { Date(timeIntervalSinceReferenceDate: Double(10 * i)) }

    static func cost(_ i: Int) -> Decimal { Decimal(string: ["0", "1.1", "2.2", "3.3", "4.4"][i]) ?? 0 }

    static func context(saved: Bool) throws -> ManagedObjectContext {
        let container = try PersistentContainer(model: EntityModel.model, url: nil)
        container.coordinator.register(Entity.self, forEntityName: "Entity")
        let context = container.newContext()
        for i in 0..<5 {
            let entity = try context.insert(Entity.self)
            entity.quantity = Int32(i)
            entity.price = Double(i) + 0.5
            entity.date = date(i)
            entity.name = names[i]
            entity.cost = cost(i)
        }
        if saved {
            try context.save()
            return container.newContext()
        }
        return context
    }

    /// The indexes (quantities) of the matches, sorted.
    static func indexes(_ query: Query<Entity>) throws -> [Int32] {
        try query.all().map(\.quantity).sorted()
    }

    @Test("Int ranges: closed, half-open (upper bound excluded), empty, partial", arguments: [true, false])
    func intRanges(saved: Bool) throws {
        let query = Entity.query(in: try Self.context(saved: saved))
        #expect(try Self.indexes(query.where([.quantity: 1...3])) == [1, 2, 3])
        #expect(try Self.indexes(query.where([.quantity: 1..<3])) == [1, 2])
        #expect(try Self.indexes(query.where([.quantity: 3..<3])) == [])
        #expect(try Self.indexes(query.where([.quantity: 3...])) == [3, 4])
        #expect(try Self.indexes(query.where([.quantity: ...1])) == [0, 1])
        #expect(try Self.indexes(query.where([.quantity: ..<1])) == [0])
        #expect(try Self.indexes(query.where([.quantity: Int64(1)...Int64(2)])) == [1, 2])
        // min..<min is empty: no predecessor to compute, no overflow.
        #expect(try Self.indexes(query.where([.quantity: Int16.min..<Int16.min])) == [])
    }

    @Test("Double ranges", arguments: [true, false])
    func doubleRanges(saved: Bool) throws {
        let query = Entity.query(in: try Self.context(saved: saved))
        #expect(try Self.indexes(query.where([.price: 1.5...3.5])) == [1, 2, 3])
        #expect(try Self.indexes(query.where([.price: 1.5..<3.5])) == [1, 2])
        #expect(try Self.indexes(query.where([.price: 1.0..<1.5])) == [])
    }

    @Test("Date ranges", arguments: [true, false])
    func dateRanges(saved: Bool) throws {
        let query = Entity.query(in: try Self.context(saved: saved))
        #expect(try Self.indexes(query.where([.date: Self.date(1)...Self.date(3)])) == [1, 2, 3])
        #expect(try Self.indexes(query.where([.date: Self.date(1)..<Self.date(3)])) == [1, 2])
    }

    @Test("String ranges", arguments: [true, false])
    func stringRanges(saved: Bool) throws {
        let query = Entity.query(in: try Self.context(saved: saved))
        #expect(try Self.indexes(query.where([.name: "b"..."d"])) == [1, 2, 3])
        #expect(try Self.indexes(query.where([.name: "b"..<"d"])) == [1, 2])
        #expect(try Self.indexes(query.where([.name: "bb"..."cz"])) == [2])
    }

    @Test("Decimal ranges", arguments: [true, false])
    func decimalRanges(saved: Bool) throws {
        let query = Entity.query(in: try Self.context(saved: saved))
        #expect(try Self.indexes(query.where([.cost: Self.cost(1)...Self.cost(3)])) == [1, 2, 3])
        #expect(try Self.indexes(query.where([.cost: Self.cost(1)..<Self.cost(3)])) == [1, 2])
    }

    @Test("lt, lte, gt, gte, ne", arguments: [true, false])
    func inequalities(saved: Bool) throws {
        let query = Entity.query(in: try Self.context(saved: saved))
        #expect(try Self.indexes(query.where([.quantity: lt(2)])) == [0, 1])
        #expect(try Self.indexes(query.where([.quantity: lte(2)])) == [0, 1, 2])
        #expect(try Self.indexes(query.where([.quantity: gt(2)])) == [3, 4])
        #expect(try Self.indexes(query.where([.quantity: gte(2)])) == [2, 3, 4])
        #expect(try Self.indexes(query.where([.quantity: ne(2)])) == [0, 1, 3, 4])
        #expect(try Self.indexes(query.where([.price: gt(1.0), .name: lt("d")])) == [1, 2])
    }

    @Test("the predicates a range and an inequality make")
    func predicateFormats() throws {
        let query = Entity.query(in: try Self.context(saved: false))
        #expect(try query.where([.quantity: 1...3]).fetchRequest.predicate?.predicateFormat == "quantity BETWEEN {1, 3}")
        #expect(try query.where([.quantity: 1..<3]).fetchRequest.predicate?.predicateFormat == "quantity BETWEEN {1, 2}")
        #expect(try query.where([.quantity: lte(2)]).fetchRequest.predicate?.predicateFormat == "quantity <= 2")
        #expect(
            try query.where([.name: "b"..<"d"]).fetchRequest.predicate?.predicateFormat
                == #"name >= "b" AND name < "d""#)
    }
}
