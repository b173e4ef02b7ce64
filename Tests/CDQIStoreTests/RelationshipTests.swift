import CDQIModel
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// Inverse maintenance, join tables, order keys and delete rules.
@Suite("Relationships")
struct RelationshipTests {
    private func names(_ objects: [ManagedObject], _ key: String = "name") throws -> [String] {
        try objects.map { try $0.value(forKey: key) as? String ?? "?" }
    }

    @Test("setting either side of a one-to-many updates the other")
    func oneToManyInverse() throws {
        let context = try ContextTestSupport.memoryContext("Company")
        let research = try ContextTestSupport.insert(context, "Department", ["name": "Research"])
        let sales = try ContextTestSupport.insert(context, "Department", ["name": "Sales"])
        let ada = try ContextTestSupport.insert(context, "Employee", ["firstName": "Ada", "lastName": "L"])

        try ada.setValue(research, forKey: "department")
        #expect(try research.objects(forKey: "employees") == [ada])
        try ada.setValue(sales, forKey: "department")
        #expect(try research.objects(forKey: "employees").isEmpty)
        #expect(try sales.objects(forKey: "employees") == [ada])

        try research.addObject(ada, toKey: "employees")
        #expect(try ada.object(forKey: "department") === research)
        #expect(try sales.objects(forKey: "employees").isEmpty)
        try research.removeObject(ada, fromKey: "employees")
        #expect(try ada.object(forKey: "department") == nil)

        try research.setValue(Set([ada]), forKey: "employees")
        #expect(try ada.object(forKey: "department") === research)
        try research.setValue(nil, forKey: "employees")
        #expect(try ada.object(forKey: "department") == nil)
    }

    @Test("relationship values are checked: destination entity, context, value type")
    func relationshipChecks() throws {
        let context = try ContextTestSupport.memoryContext("Company")
        let department = try ContextTestSupport.insert(context, "Department", ["name": "R"])
        let test = try context.insertNewObject(forEntityName: "TestEntity")
        let employee = try ContextTestSupport.insert(context, "Employee", ["firstName": "A", "lastName": "B"])
        #expect(
            throws: ManagedObjectError.wrongDestinationEntity(
                entity: "Employee", key: "department", expected: "Department", got: "TestEntity")
        ) {
            try employee.setValue(test, forKey: "department")
        }
        #expect(
            throws: ManagedObjectError.wrongValueType(
                entity: "Employee", key: "department", expected: "a ManagedObject", got: "String")
        ) {
            try employee.setValue("Research", forKey: "department")
        }
        let other = try ContextTestSupport.memoryContext("Company")
        let foreign = try ContextTestSupport.insert(other, "Department", ["name": "X"])
        #expect(throws: ManagedObjectError.differentContext(entity: "Employee", key: "department")) {
            try employee.setValue(foreign, forKey: "department")
        }
        #expect(try department.objects(forKey: "employees").isEmpty)
    }

    @Test("many-to-many: both sides stay in step, and the join table holds exactly the pairs")
    func manyToMany() throws {
        let (coordinator, url, cleanUp) = try ContextTestSupport.fileCoordinator("Developers")
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let ann = try ContextTestSupport.insert(context, "Developer", ["firstName": "Ann", "lastName": "A"])
        let bob = try ContextTestSupport.insert(context, "Developer", ["firstName": "Bob", "lastName": "B"])
        let swift = try ContextTestSupport.insert(context, "Language", ["name": "Swift"])
        let rust = try ContextTestSupport.insert(context, "Language", ["name": "Rust"])
        let compiler = try ContextTestSupport.insert(context, "Project", ["name": "Compiler"])

        try ann.addObject(swift, toKey: "languages")
        try ann.addObject(rust, toKey: "languages")
        try rust.addObject(bob, toKey: "developers")
        try compiler.setValue([ann, bob], forKey: "members")
        try compiler.setValue(ann, forKey: "lead")
        #expect(Set(try swift.objects(forKey: "developers")) == [ann])
        #expect(Set(try rust.objects(forKey: "developers")) == [ann, bob])
        #expect(Set(try bob.objects(forKey: "projects")) == [compiler])
        #expect(try ann.objects(forKey: "ledProjects") == [compiler])
        try context.save()

        // Developer 1, Language 2, Project 3: Z_1LANGUAGES (Z_1DEVELOPERS, Z_2LANGUAGES), Z_1PROJECTS (Z_1MEMBERS, Z_3PROJECTS).
        // Keys: Ann 1, Bob 2; Swift 1, Rust 2; Compiler 1.
        #expect(
            try ContextTestSupport.rows(file: url, "SELECT Z_1DEVELOPERS, Z_2LANGUAGES FROM Z_1LANGUAGES ORDER BY 1, 2") == [
                ["1", "1"], ["1", "2"], ["2", "2"],
            ])
        #expect(
            try ContextTestSupport.rows(file: url, "SELECT Z_1MEMBERS, Z_3PROJECTS FROM Z_1PROJECTS ORDER BY 1, 2") == [
                ["1", "1"], ["2", "1"],
            ])
        #expect(try ContextTestSupport.rows(file: url, "SELECT Z_PK, ZLEAD, ZNAME FROM ZPROJECT") == [["1", "1", "Compiler"]])

        try swift.removeObject(ann, fromKey: "developers")
        try bob.addObject(swift, toKey: "languages")
        #expect(try ann.objects(forKey: "languages") == [rust])
        try context.save()
        #expect(
            try ContextTestSupport.rows(file: url, "SELECT Z_1DEVELOPERS, Z_2LANGUAGES FROM Z_1LANGUAGES ORDER BY 1, 2") == [
                ["1", "2"], ["2", "1"], ["2", "2"],
            ])

        // Read back from the join table in a fresh context.
        let fresh = ManagedObjectContext(coordinator: coordinator)
        let bobAgain = try fresh.existingObject(with: bob.objectID)
        #expect(Set(try names(try bobAgain.objects(forKey: "languages"))) == ["Swift", "Rust"])
        let rustAgain = try fresh.existingObject(with: rust.objectID)
        #expect(Set(try names(try rustAgain.objects(forKey: "developers"), "firstName")) == ["Ann", "Bob"])
        #expect(Set(try names(try fresh.existingObject(with: compiler.objectID).objects(forKey: "members"), "firstName")) == ["Ann", "Bob"])
    }

    @Test("an ordered one-to-many keeps its order in Z_FOK_ keys 2048, 3072, …")
    func orderedRelationship() throws {
        let (coordinator, url, cleanUp) = try ContextTestSupport.fileCoordinator("Library")
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let created = Date(timeIntervalSinceReferenceDate: 0)
        let shelf = try ContextTestSupport.insert(context, "Shelf", ["name": "Top"])
        let dune = try ContextTestSupport.insert(context, "Book", ["title": "Dune", "isbn": "0441013597", "createdAt": created])
        let kind = try ContextTestSupport.insert(context, "Album", ["title": "Kind of Blue", "createdAt": created])
        let emma = try ContextTestSupport.insert(context, "Book", ["title": "Emma", "isbn": "0141439580", "createdAt": created])
        try shelf.setValue([dune, kind, emma], forKey: "items")
        #expect(try shelf.value(forKey: "items") as? [ManagedObject] == [dune, kind, emma])
        #expect(try emma.object(forKey: "shelf") === shelf)
        try context.save()
        // Item is entity 1 (root of Book 2, Media 3, Album 4): keys 1, 2, 3 in insertion order.
        #expect(
            try ContextTestSupport.rows(file: url, "SELECT Z_PK, Z_ENT, ZTITLE, ZSHELF, Z_FOK_SHELF FROM ZITEM ORDER BY Z_PK") == [
                ["1", "2", "Dune", "1", "2048"], ["2", "4", "Kind of Blue", "1", "3072"], ["3", "2", "Emma", "1", "4096"],
            ])
        #expect(
            try ContextTestSupport.rows(file: url, "SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY WHERE Z_MAX > 0 ORDER BY Z_ENT") == [
                ["1", "3"], ["5", "1"],
            ])

        try shelf.insertObject(emma, at: 0, forKey: "items")
        try context.save()
        #expect(
            try ContextTestSupport.rows(file: url, "SELECT ZTITLE, Z_FOK_SHELF FROM ZITEM ORDER BY Z_FOK_SHELF") == [
                ["Emma", "2048"], ["Dune", "3072"], ["Kind of Blue", "4096"],
            ])

        let fresh = ManagedObjectContext(coordinator: coordinator)
        let shelfAgain = try fresh.existingObject(with: shelf.objectID)
        let items = try shelfAgain.objects(forKey: "items")
        #expect(try names(items, "title") == ["Emma", "Dune", "Kind of Blue"])
        #expect(items.map(\.entity.name) == ["Book", "Book", "Album"])
        #expect(try items[2].value(forKey: "trackCount") as? Int16 == 1)

        // Removing an item clears its key and order.
        try shelfAgain.removeObject(items[1], fromKey: "items")
        try fresh.save()
        #expect(
            try ContextTestSupport.rows(file: url, "SELECT ZTITLE, ZSHELF, Z_FOK_SHELF FROM ZITEM ORDER BY Z_PK") == [
                ["Dune", "NULL", "NULL"], ["Kind of Blue", "1", "3072"], ["Emma", "1", "2048"],
            ])
    }

    @Test("Cascade deletes the destinations; Nullify removes the object from the inverse")
    func cascadeAndNullify() throws {
        let (coordinator, url, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let research = try ContextTestSupport.insert(context, "Department", ["name": "Research"])
        let sales = try ContextTestSupport.insert(context, "Department", ["name": "Sales"])
        let ada = try ContextTestSupport.insert(context, "Employee", ["firstName": "Ada", "lastName": "L", "department": research])
        let alan = try ContextTestSupport.insert(context, "Employee", ["firstName": "Alan", "lastName": "T", "department": research])
        let grace = try ContextTestSupport.insert(context, "Employee", ["firstName": "Grace", "lastName": "H", "department": sales])
        try context.save()

        // Nullify (Employee.department): deleting Grace empties Sales.employees.
        try context.delete(grace)
        #expect(try sales.objects(forKey: "employees").isEmpty)
        #expect(sales.isUpdated)
        // Cascade (Department.employees): deleting Research deletes Ada and Alan.
        try context.delete(research)
        #expect(ada.isDeleted && alan.isDeleted)
        #expect(context.deletedObjects == [grace, research, ada, alan])
        try context.save()
        #expect(try ContextTestSupport.rows(file: url, "SELECT COUNT(*) FROM ZEMPLOYEE") == [["0"]])
        #expect(try ContextTestSupport.rows(file: url, "SELECT ZNAME, Z_OPT FROM ZDEPARTMENT") == [["Sales", "2"]])
    }

    @Test("Deny refuses the save while the relationship holds objects; No Action leaves the other side alone")
    func denyAndNoAction() throws {
        let (coordinator, url, cleanUp) = try ContextTestSupport.fileCoordinator("Library")
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let created = Date(timeIntervalSinceReferenceDate: 0)
        let shelf = try ContextTestSupport.insert(context, "Shelf", ["name": "Top"])
        let book = try ContextTestSupport.insert(context, "Book", ["title": "Dune", "isbn": "0441013597", "createdAt": created, "shelf": shelf])
        let tag = try ContextTestSupport.insert(context, "Tag", ["name": "scifi"])
        try book.addObject(tag, toKey: "tags")
        try context.save()
        #expect(try ContextTestSupport.rows(file: url, "SELECT Z_1ITEMS, Z_6TAGS FROM Z_1TAGS") == [["1", "1"]])

        try context.delete(shelf)
        do {
            try context.save()
            Issue.record("the Deny rule should refuse the save")
        } catch {
            guard case .validation(let failures) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(failures.map(\.problem) == [.deleteDenied(count: 1)])
            #expect(failures.map(\.key) == ["items"])
            #expect(failures.first?.code == 1600)
        }
        #expect(try ContextTestSupport.rows(file: url, "SELECT COUNT(*) FROM ZSHELF") == [["1"]])
        #expect(shelf.isDeleted)
        context.rollback()
        #expect(!shelf.isDeleted)

        // Moving the book away first lets the shelf go.
        try book.setValue(nil, forKey: "shelf")
        try context.delete(shelf)
        try context.save()
        #expect(try ContextTestSupport.rows(file: url, "SELECT COUNT(*) FROM ZSHELF") == [["0"]])

        // No Action (Tag.items): the book still lists the deleted tag in memory; the tag's rows go.
        try context.delete(tag)
        #expect(try book.objects(forKey: "tags") == [tag])
        try context.save()
        #expect(try ContextTestSupport.rows(file: url, "SELECT COUNT(*) FROM ZTAG") == [["0"]])
        #expect(try ContextTestSupport.rows(file: url, "SELECT COUNT(*) FROM Z_1TAGS") == [["0"]])
    }

    @Test("deleting an object that was never saved just removes it, nullifying its relationships")
    func deleteInserted() throws {
        let context = try ContextTestSupport.memoryContext("Company")
        let department = try ContextTestSupport.insert(context, "Department", ["name": "R"])
        try context.save()
        let employee = try ContextTestSupport.insert(context, "Employee", ["firstName": "A", "lastName": "B", "department": department])
        try context.delete(employee)
        #expect(context.insertedObjects.isEmpty && context.deletedObjects.isEmpty)
        #expect(try department.objects(forKey: "employees").isEmpty)
        #expect(employee.managedObjectContext == nil)
        try context.save()
        #expect(try ContextTestSupport.rows(context.coordinator, "SELECT COUNT(*) FROM ZEMPLOYEE") == [["0"]])
    }

    @Test("Nullify skips a destination another context already deleted")
    func nullifyMissingDestination() throws {
        let (coordinator, url, cleanUp) = try ContextTestSupport.fileCoordinator("Developers")
        defer { cleanUp() }
        let a = ManagedObjectContext(coordinator: coordinator)
        let lead = try ContextTestSupport.insert(a, "Developer", ["firstName": "L", "lastName": "L"])
        let project = try ContextTestSupport.insert(a, "Project", ["name": "P", "lead": lead])
        try a.save()
        a.reset()
        let projectInA = try a.existingObject(with: project.objectID)
        #expect(try projectInA.object(forKey: "lead")?.isFault == true)

        let b = ManagedObjectContext(coordinator: coordinator)
        try b.delete(try b.existingObject(with: lead.objectID))
        try b.save()

        try a.delete(projectInA)
        #expect(throws: ContextError.self) { try a.save() }  // the project's row changed (its lead was nullified)
        a.mergePolicy = .mergeByPropertyObjectTrump
        try a.save()
        #expect(try ContextTestSupport.rows(file: url, "SELECT (SELECT COUNT(*) FROM ZPROJECT), (SELECT COUNT(*) FROM ZDEVELOPER)") == [["0", "0"]])
    }

    @Test("loading a to-many fills its members' faults in the same query, without touching loaded members")
    func membersLoadTogether() throws {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Library")
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let created = Date(timeIntervalSinceReferenceDate: 0)
        let shelf = try ContextTestSupport.insert(context, "Shelf", ["name": "S"])
        let book = try ContextTestSupport.insert(context, "Book", ["title": "B", "isbn": "0441013597", "createdAt": created, "shelf": shelf])
        let album = try ContextTestSupport.insert(context, "Album", ["title": "A", "trackCount": 7, "createdAt": created, "shelf": shelf])
        try context.save()

        let fresh = ManagedObjectContext(coordinator: coordinator)
        let changedBook = try fresh.existingObject(with: book.objectID)
        try changedBook.setValue("Changed", forKey: "title")
        let albumFault = fresh.object(with: album.objectID)
        #expect(albumFault.isFault)
        let items = try fresh.existingObject(with: shelf.objectID).objects(forKey: "items")
        #expect(items == [changedBook, albumFault])
        #expect(!albumFault.isFault)
        #expect(try albumFault.storedValue(forKey: "trackCount") == .integer(7))
        #expect(try changedBook.value(forKey: "title") as? String == "Changed")
        #expect(changedBook.isUpdated)
    }

    @Test("each owner's members are read with the relationship's one statement: two departments, their own employees")
    func membersOfSeveralOwners() throws {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let research = try ContextTestSupport.insert(context, "Department", ["name": "Research"])
        let sales = try ContextTestSupport.insert(context, "Department", ["name": "Sales"])
        let empty = try ContextTestSupport.insert(context, "Department", ["name": "Empty"])
        for (first, department) in [("Ada", research), ("Bob", sales), ("Cy", research)] {
            try ContextTestSupport.insert(context, "Employee", ["firstName": first, "lastName": "L", "department": department])
        }
        try context.save()

        let fresh = ManagedObjectContext(coordinator: coordinator)
        func firstNames(_ department: ManagedObject) throws -> Set<String> {
            Set(
                try fresh.existingObject(with: department.objectID).objects(forKey: "employees").map {
                    try $0.value(forKey: "firstName") as? String ?? "?"
                })
        }
        #expect(try firstNames(research) == ["Ada", "Cy"])
        #expect(try firstNames(sales) == ["Bob"])
        #expect(try firstNames(empty) == [])
        // Three owners of one relationship: one statement written.
        #expect(fresh.toManyQueries.count == 1)
    }

    @Test("a saved object moved to an object inserted in the same save stores the new key")
    func updatePointsAtNewObject() throws {
        let (coordinator, url, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        try ContextTestSupport.insert(context, "Department", ["name": "Old"])
        let employee = try ContextTestSupport.insert(context, "Employee", ["firstName": "A", "lastName": "B"])
        try context.save()
        let newer = try ContextTestSupport.insert(context, "Department", ["name": "New"])
        try employee.setValue(newer, forKey: "department")
        try context.save()
        #expect(try ContextTestSupport.rows(file: url, "SELECT ZDEPARTMENT, Z_OPT FROM ZEMPLOYEE") == [["2", "2"]])
    }
}
