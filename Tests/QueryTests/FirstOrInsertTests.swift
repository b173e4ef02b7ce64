import CDQIStore
import Foundation
import Query
import Testing

/// `firstOrInsert()`: the first match, or a new object with the dictionary's values; `tooComplex`
/// whenever the conditions do not determine the values.
@Suite("firstOrInsert")
struct FirstOrInsertTests {
    /// A context with one saved object: name "Ann", quantity 1.
    static func context() throws -> ManagedObjectContext {
        let container = try PersistentContainer(model: EntityModel.model, url: nil)
        let context = container.newContext()
        let ann = try Entity.query(in: context).where([.name: "Ann", .quantity: 1]).firstOrInsert()
        #expect(ann.isInserted)
        try context.save()
        return container.newContext()
    }

    /// Every query shape that leaves a new object's values undetermined.
    static let tooComplex: [(String, @Sendable (Query<Entity>) -> Query<Entity>)] = [
        ("format where", { $0.where("name == 'Ann'") }),
        ("format where after a dictionary", { $0.where([.name: "Ann"]).where("quantity == 1") }),
        ("format or", { $0.where([.name: "Ann"]).or("name == 'Bob'") }),
        ("labeled format or", { $0.where([.name: "Ann"]).or("name == %@", args: "Bob") }),
        ("dictionary or", { $0.where([.name: "Ann"]).or([.name: "Bob"]) }),
        ("lt", { $0.where([.quantity: lt(2)]) }),
        ("lte", { $0.where([.quantity: lte(1)]) }),
        ("gt", { $0.where([.quantity: gt(0)]) }),
        ("gte", { $0.where([.quantity: gte(1)]) }),
        ("ne", { $0.where([.quantity: ne(0)]) }),
        ("inequality beside a plain value", { $0.where([.name: "Ann", .quantity: lt(2)]) }),
        ("closed range", { $0.where([.quantity: 1...3]) }),
        ("half-open range", { $0.where([.quantity: 1..<3]) }),
        ("partial range from", { $0.where([.quantity: 1...]) }),
        ("partial range through", { $0.where([.quantity: ...1]) }),
        ("partial range up to", { $0.where([.quantity: ..<2]) }),
        ("Double range", { $0.where([.price: 0.0...1.0]) }),
        ("String range", { $0.where([.name: "A"..."B"]) }),
        ("range, then a plain dictionary", { $0.where([.quantity: 1...3]).where([.name: "Ann"]) }),
    ]

    @Test(
        "too complex: every or, inequality, range and format condition; nothing is inserted",
        arguments: 0..<Self.tooComplex.count)
    func tooComplexCases(index: Int) throws {
        let context = try Self.context()
        let (_, shape) = Self.tooComplex[index]
        #expect(throws: QueryError.tooComplex) { try shape(Entity.query(in: context)).firstOrInsert() }
        #expect(context.insertedObjects.isEmpty)
    }

    @Test("an existing match is returned, not inserted")
    func existing() throws {
        let context = try Self.context()
        let ann = try Entity.query(in: context).where([.name: "Ann"]).firstOrInsert()
        #expect(ann.name == "Ann" && ann.quantity == 1 && !ann.isInserted)
        #expect(context.insertedObjects.isEmpty)
    }

    @Test("no match: a new object with the values of successive dictionary wheres")
    func inserted() throws {
        let context = try Self.context()
        let query = Entity.query(in: context).where([.name: "Ann"]).where([.quantity: 2, .department: "Sales"])
        let new = try query.firstOrInsert()
        #expect(new.isInserted)
        #expect(new.name == "Ann" && new.quantity == 2 && new.department == "Sales")
        #expect(context.insertedObjects.count == 1)
        // The unsaved object is found the second time.
        #expect(try query.firstOrInsert() === new)
        #expect(context.insertedObjects.count == 1)
    }

    @Test("order(by:) keeps a query simple")
    func orderKeepsItSimple() throws {
        let context = try Self.context()
        let new = try Entity.query(in: context).where([.name: "Cy"]).order(by: .quantity).order(by: "date").firstOrInsert()
        #expect(new.name == "Cy" && new.isInserted)
    }

    @Test("no condition at all: the first object, or a blank one in an empty store")
    func noCondition() throws {
        let context = try Self.context()
        #expect(try Entity.query(in: context).firstOrInsert().name == "Ann")
        let empty = try PersistentContainer(model: EntityModel.model, url: nil).newContext()
        let blank = try Entity.query(in: empty).firstOrInsert()
        #expect(blank.isInserted && blank.name == nil && blank.quantity == 0)
    }

    @Test("a value that does not fit its attribute throws and leaves no object behind")
    func valueThatDoesNotFit() throws {
        let context = try Self.context()
        #expect(throws: (any Error).self) { try Entity.query(in: context).where([.quantity: "many"]).firstOrInsert() }
        #expect(context.insertedObjects.isEmpty)
    }
}
