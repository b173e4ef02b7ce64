import CDQIModel
import CDQIPredicate
import CDQIStore
import Foundation
import Query
import Testing

/// No traps: each problem is a typed error thrown by the call that runs the query.
@Suite("Query errors")
struct QueryErrorTests {
    @Test("or with no where before it, in each form and whatever follows")
    func orWithoutWhere() throws {
        let context = try EntityModel.context()
        let query = Entity.query(in: context)
        #expect(throws: QueryError.orWithoutWhere) { try query.or("quantity == 1").all() }
        #expect(throws: QueryError.orWithoutWhere) { try query.or("quantity == %d", args: 1).count() }
        #expect(throws: QueryError.orWithoutWhere) { try query.or([.quantity: 1]).first() }
        #expect(throws: QueryError.orWithoutWhere) { try query.or([.quantity: 1]).where([.name: "a"]).firstOrInsert() }
        #expect(throws: QueryError.orWithoutWhere) { try query.or("quantity == 1").fetchRequest }
        #expect(context.insertedObjects.isEmpty)
    }

    @Test("a malformed format string: the first parse error, with its offset")
    func malformedFormat() throws {
        let context = try EntityModel.context()
        do {
            _ = try Entity.query(in: context).where("quantity ==").where("name = ").all()
            Issue.record("expected an error")
        } catch let QueryError.invalidPredicate(error) {
            #expect(error.source == "quantity ==")
            #expect(error.utf8Offset == 11)
        }
        do {
            _ = try Entity.query(in: context).where("quantity == 1").or("name == 'a' AND AND").count()
            Issue.record("expected an error")
        } catch let QueryError.invalidPredicate(error) {
            #expect(error.utf8Offset == 16)
        }
    }

    @Test("a class no entity stands for")
    func entityNotFound() throws {
        let context = try EntityModel.context()
        #expect(throws: QueryError.entityNotFound(className: "Stray")) { try Stray.query(in: context).all() }
        #expect(throws: QueryError.entityNotFound(className: "Stray")) { try Stray.query(in: context).firstOrInsert() }
        #expect(throws: QueryError.entityNotFound(className: "Stray")) { try Stray.query(in: context).fetchRequest }
    }

    @Test("an entity whose objects are registered as another class")
    func classMismatch() throws {
        let container = try PersistentContainer(model: EntityModel.model, url: nil)
        container.coordinator.register(OtherBare.self, forEntityName: "Bare")
        let context = container.newContext()
        let expected = QueryError.classMismatch(entity: "Bare", className: "Bare", registeredClassName: "OtherBare")
        #expect(throws: expected) { try Bare.query(in: context).count() }
    }

    @Test("a key the entity does not have: dictionary conditions, sort keys, id")
    func unknownKey() throws {
        let context = try EntityModel.context()
        let query = Entity.query(in: context)
        let nope = QueryError.unknownKey("nope", entity: "Entity")
        #expect(throws: nope) { try query.where([.nope: 1]).all() }
        #expect(throws: nope) { try query.where([.quantity: 1]).or([.nope: lt(2)]).count() }
        #expect(throws: nope) { try query.order(by: .nope).first() }
        #expect(throws: nope) { try query.order(by: "nope.name").all() }
        #expect(throws: nope) { try query.where([.nope: 1]).firstOrInsert() }
        let id = QueryError.unknownKey("id", entity: "Bare")
        #expect(throws: id) { try Bare.query(in: context).exists(UUID()) }
        #expect(throws: id) { try Bare.query(in: context).fetchOrInsert(UUID()) }
        #expect(context.insertedObjects.isEmpty)
    }

    @Test("keys the entity inherits are known; a sibling entity's are not")
    func inheritedKeys() throws {
        // Piece (title, a to-one `box`) with two sub-entities: Puzzle (pieceCount) and Song (duration).
        var piece = EntityDescription(name: "Piece", representedClassName: "Piece")
        piece.isAbstract = true
        piece.attributes = [AttributeDescription(name: "title", type: .string, isOptional: true)]
        piece.relationships = [RelationshipDescription(name: "box", destinationEntityName: "Box")]
        var puzzle = EntityDescription(name: "Puzzle", representedClassName: "Puzzle")
        puzzle.parentEntityName = "Piece"
        puzzle.attributes = [AttributeDescription(name: "pieceCount", type: .integer32, isOptional: true)]
        var song = EntityDescription(name: "Song", representedClassName: "Song")
        song.parentEntityName = "Piece"
        song.attributes = [AttributeDescription(name: "duration", type: .double, isOptional: true)]
        let box = EntityDescription(name: "Box", representedClassName: "Box")
        let model = ManagedObjectModel(entities: [piece, puzzle, song, box])
        let context = try PersistentContainer(model: model, url: nil).newContext()
        let query = Puzzle.query(in: context)
        #expect(try query.where([.title: "Sky"]).where([.pieceCount: 1000]).order(by: .box).all().isEmpty)
        #expect(try query.order(by: .title).first() == nil)
        #expect(throws: QueryError.unknownKey("duration", entity: "Puzzle")) { try query.where([.duration: 1.5]).count() }
        #expect(throws: QueryError.unknownKey("duration", entity: "Puzzle")) { try query.order(by: .duration).first() }
    }

    @Test("a key in a format string the entity does not have is the store's error")
    func unknownKeyInFormat() throws {
        let context = try EntityModel.context()
        #expect(throws: (any Error).self) { try Entity.query(in: context).where("nope == 1").all() }
    }

    @Test("query() on an object in no context")
    func noContext() throws {
        let context = try EntityModel.context()
        let entity = try context.insert(Entity.self)
        context.reset()
        #expect(throws: QueryError.noContext(entity: "Entity")) { try entity.query().count() }
    }

    @Test("errors name the problem")
    func descriptions() {
        #expect(QueryError.orWithoutWhere.description.contains("'or' needs a 'where'"))
        #expect(QueryError.unknownKey("nope", entity: "Entity").description == "entity 'Entity' has no property 'nope'")
        #expect(QueryError.entityNotFound(className: "Stray").description.contains("'Stray'"))
    }
}

/// A subclass of `Gadget` (the class the model names for `Tool`), registered for `Tool`.
final class SpecialGadget: Gadget {}

extension QueryErrorTests {
    @Test("a subclass registered for the entity is no mismatch for a query of its superclass")
    func registeredSubclass() throws {
        let container = try PersistentContainer(model: EntityModel.model, url: nil)
        container.coordinator.register(SpecialGadget.self, forEntityName: "Tool")
        let context = container.newContext()
        let special = try context.insert(SpecialGadget.self)
        try special.setValue("s", forKey: "label")
        let found = try #require(try Gadget.query(in: context).where([.label: "s"]).first())
        #expect(found === special)
        #expect(type(of: found) == SpecialGadget.self)
    }
}

/// A sub-entity's class for ``QueryErrorTests/inheritedKeys()``; `duration` is its sibling's attribute.
final class Puzzle: ManagedObject, Queryable {
    enum Attribute { case title, box, pieceCount, duration }
}
