import CDQIModel
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// `objectIDs(forRelationshipNamed:)`: a relationship's destinations as IDs, read without registering
/// the members of an unloaded to-many as objects.
@Suite("Relationship IDs")
struct RelationshipIDsTests {
    @Test("an unloaded to-many gives its members' IDs and registers none of them")
    func unloadedToManyRegistersNoMember() throws {
        let context = try ContextTestSupport.memoryContext("Company")
        let research = try ContextTestSupport.insert(context, "Department", ["name": "Research"])
        let sales = try ContextTestSupport.insert(context, "Department", ["name": "Sales"])
        var researchers: [ManagedObject] = []
        for name in ["Ada", "Bob", "Cy"] {
            let employee = try ContextTestSupport.insert(context, "Employee", ["firstName": name, "lastName": "R"])
            try employee.setValue(research, forKey: "department")
            researchers.append(employee)
        }
        let dee = try ContextTestSupport.insert(context, "Employee", ["firstName": "Dee", "lastName": "S"])
        try dee.setValue(sales, forKey: "department")
        _ = try context.save()
        // Inserted in this order: Research is Department 1, Ada, Bob and Cy are Employee 1 to 3, Dee is 4.
        let researchID = research.objectID
        let expected = try researchers.map { try #require($0.objectID.primaryKey) }
        #expect(expected == [1, 2, 3])
        context.reset()

        let owner = try context.existingObject(with: researchID)
        let ids = try owner.objectIDs(forRelationshipNamed: "employees")
        #expect(ids.compactMap(\.primaryKey).sorted() == [1, 2, 3])
        #expect(ids.allSatisfy { $0.entityName == "Employee" })
        // Only the department is registered: no member became an object.
        #expect(context.registeredObjects.count == 1)
    }

    @Test("a loaded to-many gives its current members, unsaved changes included; a to-one its destination")
    func loadedToManyAndToOne() throws {
        let context = try ContextTestSupport.memoryContext("Company")
        let research = try ContextTestSupport.insert(context, "Department", ["name": "Research"])
        let ada = try ContextTestSupport.insert(context, "Employee", ["firstName": "Ada", "lastName": "R"])
        let bob = try ContextTestSupport.insert(context, "Employee", ["firstName": "Bob", "lastName": "R"])
        try ada.setValue(research, forKey: "department")
        _ = try context.save()
        try bob.setValue(research, forKey: "department")
        #expect(Set(try research.objectIDs(forRelationshipNamed: "employees")) == [ada.objectID, bob.objectID])
        #expect(try bob.objectIDs(forRelationshipNamed: "department") == [research.objectID])
        try bob.setValue(nil, forKey: "department")
        #expect(try bob.objectIDs(forRelationshipNamed: "department").isEmpty)
        #expect(try research.objectIDs(forRelationshipNamed: "employees") == [ada.objectID])
    }

    @Test("an ordered to-many keeps its order; a many-to-many reads through its join table; IDs name the sub-entity")
    func orderedAndManyToMany() throws {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Library")
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let created = Date(timeIntervalSinceReferenceDate: 0)
        let shelf = try ContextTestSupport.insert(context, "Shelf", ["name": "Top"])
        let tag = try ContextTestSupport.insert(context, "Tag", ["name": "scifi"])
        var books: [ManagedObject] = []
        for (title, isbn) in [("Dune", "0441013597"), ("Solaris", "0156027607"), ("Ubik", "0547572298")] {
            let book = try ContextTestSupport.insert(context, "Book", ["title": title, "isbn": isbn, "createdAt": created])
            try book.addObject(tag, toKey: "tags")
            books.append(book)
        }
        // Ubik, Dune, Solaris: not the order of insertion.
        try shelf.setValue([books[2], books[0], books[1]], forKey: "items")
        try context.save()
        let shelfID = shelf.objectID
        let tagID = tag.objectID
        let ids = books.map(\.objectID)
        context.reset()

        let ordered = try context.existingObject(with: shelfID).objectIDs(forRelationshipNamed: "items")
        #expect(ordered == [ids[2], ids[0], ids[1]])
        #expect(ordered.map(\.entityName) == ["Book", "Book", "Book"])
        let tagged = try context.existingObject(with: tagID).objectIDs(forRelationshipNamed: "items")
        #expect(Set(tagged) == Set(ids))
        #expect(tagged.count == 3)
        #expect(context.registeredObjects.count == 2)
    }

    @Test("a key that is not a relationship is refused by name")
    func unknownKey() throws {
        let context = try ContextTestSupport.memoryContext("Company")
        let research = try ContextTestSupport.insert(context, "Department", ["name": "Research"])
        #expect(throws: ManagedObjectError.unknownKey(entity: "Department", key: "name")) {
            try research.objectIDs(forRelationshipNamed: "name")
        }
        #expect(throws: ManagedObjectError.unknownKey(entity: "Department", key: "staff")) {
            try research.objectIDs(forRelationshipNamed: "staff")
        }
    }
}
