import CDQIModel
import CDQIPredicate
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

// Classes written as `cdqi` writes them for the Company and Library fixtures. The slot positions are
// those of the runtime layout (inherited properties first, attributes and relationships in model
// order): Employee's attributes are firstName 0, hireDate 1, lastName 2, nickName 3, salary 4, and its
// only relationship department 0; Department's are budget 0, name 1 and employees 0; TestEntity's
// attributes run binary 0 … uuid 13 in file order (scratch is 9); Item's are createdAt 0, title 1,
// shelf 0, tags 1; Book adds isbn 2; Shelf has lastReviewedAt 0, name 1, items 0.

private final class TypedDepartment: ManagedObject {
    var budget: Decimal? {
        get { cdqiDecimal(at: 0) }
        set { cdqiSetDecimal(newValue, at: 0) }
    }
    var name: String {
        get { cdqiString(at: 1) ?? "" }
        set { cdqiSetString(newValue, at: 1) }
    }
    var employees: Set<TypedEmployee> {
        get { Set(cdqiToMany(at: 0).compactMap { $0 as? TypedEmployee }) }
        set { cdqiSetToMany(Array(newValue), at: 0) }
    }
    func addToEmployees(_ value: TypedEmployee) { cdqiAdd(value, toManyAt: 0) }
    func removeFromEmployees(_ value: TypedEmployee) { cdqiRemove(value, fromManyAt: 0) }
}

private final class TypedEmployee: ManagedObject {
    var firstName: String {
        get { cdqiString(at: 0) ?? "" }
        set { cdqiSetString(newValue, at: 0) }
    }
    var hireDate: Date? {
        get { cdqiDate(at: 1) }
        set { cdqiSetDate(newValue, at: 1) }
    }
    var lastName: String {
        get { cdqiString(at: 2) ?? "" }
        set { cdqiSetString(newValue, at: 2) }
    }
    var nickName: String? {
        get { cdqiString(at: 3) }
        set { cdqiSetString(newValue, at: 3) }
    }
    var salary: Int32 {
        get { cdqiInt32(at: 4) ?? 0 }
        set { cdqiSetInt32(newValue, at: 4) }
    }
    var department: TypedDepartment? {
        get { cdqiToOne(at: 0) as? TypedDepartment }
        set { cdqiSetToOne(newValue, at: 0) }
    }
}

private class TypedItem: ManagedObject {
    var title: String {
        get { cdqiString(at: 1) ?? "" }
        set { cdqiSetString(newValue, at: 1) }
    }
    var shelf: TypedShelf? {
        get { cdqiToOne(at: 0) as? TypedShelf }
        set { cdqiSetToOne(newValue, at: 0) }
    }
}

private final class TypedBook: TypedItem {
    var isbn: String {
        get { cdqiString(at: 2) ?? "" }
        set { cdqiSetString(newValue, at: 2) }
    }
}

private final class TypedShelf: ManagedObject {
    var name: String {
        get { cdqiString(at: 1) ?? "" }
        set { cdqiSetString(newValue, at: 1) }
    }
    var items: [TypedItem] {
        get { cdqiToMany(at: 0).compactMap { $0 as? TypedItem } }
        set { cdqiSetToMany(newValue, at: 0) }
    }
    func insertIntoItems(_ value: TypedItem, at position: Int) { cdqiInsert(value, at: position, inManyAt: 0) }
}

/// The Company fixture as a generated model would present it.
private enum TypedCompanyModel: GeneratedModel {
    static var model: ManagedObjectModel { (try? StoreTestSupport.fixtureModel("Company")) ?? ManagedObjectModel(entities: []) }
    static var entityClasses: [(entityName: String, objectClass: ManagedObject.Type)] {
        [("Department", TypedDepartment.self), ("Employee", TypedEmployee.self)]
    }
}

@Suite struct TypedAccessTests {
    private func companyContainer(url: URL? = nil) throws -> PersistentContainer {
        try PersistentContainer(model: TypedCompanyModel.self, url: url)
    }

    @Test func typedPropertiesRoundTripThroughTheStoreAndFetchesReturnTheClasses() throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = folder.appendingPathComponent("Company.sqlite")
        let hired = Date(timeIntervalSinceReferenceDate: 700_000_000.5)
        do {
            let container = try companyContainer(url: url)
            let context = container.viewContext
            let research = try context.insert(TypedDepartment.self)
            research.name = "Research"
            research.budget = Decimal(string: "1234.56")
            let ann = try context.insert(TypedEmployee.self)
            ann.firstName = "Ann"
            ann.lastName = "Lee"
            ann.salary = 120_000
            ann.hireDate = hired
            ann.department = research
            // The setter maintained the inverse, as setValue(_:forKey:) does.
            #expect(research.employees == [ann])
            #expect(try research.objects(forKey: "employees") == [ann])
            // The typed and the key-value API see the same values.
            #expect(try ann.value(forKey: "salary") as? Int32 == 120_000)
            #expect(try ann.value(forKey: "hireDate") as? Date == hired)
            _ = try context.save()
            #expect(context.accessorErrors.isEmpty)
        }
        let container = try companyContainer(url: url)
        let fetched = try container.viewContext.fetch(FetchRequest(entityName: "Employee"))
        let ann = try #require(fetched.first as? TypedEmployee)
        #expect(fetched.count == 1)
        #expect(ann.firstName == "Ann")
        #expect(ann.lastName == "Lee")
        #expect(ann.nickName == nil)
        #expect(ann.salary == 120_000)
        #expect(ann.hireDate == hired)
        let research = try #require(ann.department)
        #expect(research.name == "Research")
        #expect(research.budget == Decimal(string: "1234.56"))
        #expect(research.employees == [ann])
        #expect(container.viewContext.accessorErrors.isEmpty)
    }

    @Test func everyScalarTypeRoundTrips() throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = folder.appendingPathComponent("Company.sqlite")
        let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        let link = try #require(URL(string: "https://example.com/a?b=c"))
        let id: ManagedObjectID
        do {
            let container = try PersistentContainer(model: try StoreTestSupport.fixtureModel("Company"), url: url)
            let object = try container.viewContext.insertNewObject(forEntityName: "TestEntity")
            object.cdqiSetData(Data([0, 1, 255]), at: 0)
            object.cdqiSetBool(true, at: 1)
            object.cdqiSetDate(Date(timeIntervalSinceReferenceDate: -1.25), at: 2)
            object.cdqiSetDecimal(Decimal(string: "0.07"), at: 3)
            object.cdqiSetDouble(2.5e-300, at: 4)
            object.cdqiSetFloat(1.1, at: 5)
            object.cdqiSetInt16(Int16.min, at: 6)
            object.cdqiSetInt32(Int32.max, at: 7)
            object.cdqiSetInt64(Int64.min, at: 8)
            object.cdqiSetString("naïve 'quoted'", at: 10)
            object.cdqiSetURL(link, at: 12)
            object.cdqiSetUUID(uuid, at: 13)
            _ = try container.viewContext.save()
            id = object.objectID
        }
        let container = try PersistentContainer(model: try StoreTestSupport.fixtureModel("Company"), url: url)
        let object = container.viewContext.object(with: id)
        #expect(object.isFault)
        #expect(object.cdqiData(at: 0) == Data([0, 1, 255]))
        #expect(object.cdqiBool(at: 1) == true)
        #expect(object.cdqiDate(at: 2) == Date(timeIntervalSinceReferenceDate: -1.25))
        #expect(object.cdqiDecimal(at: 3) == Decimal(string: "0.07"))
        #expect(object.cdqiDouble(at: 4) == 2.5e-300)
        // Stored as the Double nearest the Float, read back as that Float.
        #expect(object.cdqiFloat(at: 5) == Float(1.1))
        #expect(object.cdqiInt16(at: 6) == Int16.min)
        #expect(object.cdqiInt32(at: 7) == Int32.max)
        #expect(object.cdqiInt64(at: 8) == Int64.min)
        #expect(object.cdqiString(at: 10) == "naïve 'quoted'")
        #expect(object.cdqiURL(at: 12) == link)
        #expect(object.cdqiUUID(at: 13) == uuid)
        // A typed read of the wrong type is nil, not a crash: attribute 10 is a String.
        #expect(object.cdqiInt32(at: 10) == nil)
        // Clearing.
        object.cdqiSetString(nil, at: 10)
        #expect(object.cdqiString(at: 10) == nil)
        #expect(try object.value(forKey: "string") == nil)
    }

    @Test func integerAccessorsReadRealsOnlyWhenWholeAndInRange() throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = folder.appendingPathComponent("Company.sqlite")
        let id: ManagedObjectID
        do {
            let container = try PersistentContainer(model: try StoreTestSupport.fixtureModel("Company"), url: url)
            let object = try container.viewContext.insertNewObject(forEntityName: "TestEntity")
            object.cdqiSetInt64(1, at: 8)
            _ = try container.viewContext.save()
            id = object.objectID
        }
        // Written elsewhere: 2.5 in the Integer 64 column (a REAL: the column's INTEGER affinity keeps
        // it), whole numbers written as reals in the others (stored as integers), 70,000 beyond Int16.
        let connection = try SQLiteConnection(path: url.path)
        try connection.execute("UPDATE ZTESTENTITY SET ZINTEGER16 = 70000.0, ZINTEGER32 = 3.0, ZINTEGER64 = 2.5")
        let container = try PersistentContainer(model: try StoreTestSupport.fixtureModel("Company"), url: url)
        let object = container.viewContext.object(with: id)
        // 3.0 is the integer 3; 2.5 is no integer; 70,000 does not fit an Int16.
        #expect(object.cdqiInt32(at: 7) == 3)
        #expect(object.cdqiInt64(at: 7) == 3)
        #expect(object.cdqiInt64(at: 8) == nil)
        #expect(object.cdqiInt16(at: 6) == nil)
        #expect(object.cdqiInt32(at: 6) == 70_000)
        // The Boolean attribute (slot 1, unset) is NULL: no integer; an index past the attributes is none either.
        #expect(object.cdqiInt64(at: 1) == nil)
        #expect(object.cdqiInt64(at: 99) == nil)
        #expect(container.viewContext.accessorErrors.count == 1)
    }

    @Test func allAttributeValuesAtOnceLoadTheObjectInSlotOrder() throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let container = try companyContainer(url: folder.appendingPathComponent("Company.sqlite"))
        let ann = try container.viewContext.insert(TypedEmployee.self)
        ann.firstName = "Ann"
        ann.lastName = "Lee"
        ann.salary = 5_000
        try container.viewContext.save()
        // A fault in a new context: the call loads it. Slots: firstName, hireDate, lastName, nickName, salary.
        let context = container.newContext()
        let fault = context.object(with: ann.objectID)
        #expect(fault.isFault)
        #expect(try fault.cdqiAttributeValues() == [.string("Ann"), .null, .string("Lee"), .null, .integer(5_000)])
        #expect(!fault.isFault)
        // A fault whose context was reset cannot be loaded: the error names the entity.
        let orphan = context.object(with: ann.objectID)
        context.reset()
        #expect(throws: ManagedObjectError.noContext(entity: "Employee")) { try orphan.cdqiAttributeValues() }
    }

    @Test func unsetNonOptionalPropertiesReadTheirZeroOrTheModelDefault() throws {
        let container = try companyContainer()
        let employee = try container.viewContext.insert(TypedEmployee.self)
        #expect(employee.firstName == "")  // no default in the model: unset
        #expect(employee.salary == 0)  // defaultValueString="0"
        #expect(employee.hireDate == nil)
        #expect(employee.department == nil)
        #expect(container.viewContext.accessorErrors.isEmpty)
    }

    @Test func relationshipSettersMaintainInversesLikeSetValue() throws {
        let container = try companyContainer()
        let context = container.viewContext
        let research = try context.insert(TypedDepartment.self)
        let sales = try context.insert(TypedDepartment.self)
        let ann = try context.insert(TypedEmployee.self)
        let bob = try context.insert(TypedEmployee.self)
        research.addToEmployees(ann)
        research.addToEmployees(bob)
        #expect(ann.department === research)
        #expect(bob.department === research)
        // Moving Ann: she leaves Research.
        ann.department = sales
        #expect(research.employees == [bob])
        #expect(sales.employees == [ann])
        // Replacing Sales' members: Ann's department is cleared, Bob moves over.
        sales.employees = [bob]
        #expect(ann.department == nil)
        #expect(bob.department === sales)
        #expect(research.employees.isEmpty)
        sales.removeFromEmployees(bob)
        #expect(bob.department == nil)
        #expect(sales.employees.isEmpty)
    }

    @Test func orderedRelationshipsKeepTheirOrderAndSubEntitiesGetTheirClass() throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let url = folder.appendingPathComponent("Library.sqlite")
        func open() throws -> PersistentContainer {
            let container = try PersistentContainer(model: try StoreTestSupport.fixtureModel("Library"), url: url)
            container.coordinator.register(TypedItem.self, forEntityName: "Item")
            container.coordinator.register(TypedBook.self, forEntityName: "Book")
            container.coordinator.register(TypedShelf.self, forEntityName: "Shelf")
            return container
        }
        do {
            let container = try open()
            let context = container.viewContext
            let shelf = try context.insert(TypedShelf.self)
            shelf.name = "Fiction"
            let tag = try context.insertNewObject(forEntityName: "Tag")
            try tag.setValue("novel", forKey: "name")
            var books: [TypedBook] = []
            for (title, isbn) in [("A", "0000000001"), ("B", "0000000002"), ("C", "0000000003")] {
                let book = try context.insert(TypedBook.self)
                book.title = title
                book.isbn = isbn
                book.createdAtForTest = Date(timeIntervalSinceReferenceDate: 0)
                try book.addObject(tag, toKey: "tags")
                books.append(book)
            }
            shelf.items = [books[0], books[2]]
            shelf.insertIntoItems(books[1], at: 1)
            #expect(shelf.items.map(\.title) == ["A", "B", "C"])
            #expect(books[1].shelf === shelf)
            // Moving a member: C goes first.
            shelf.insertIntoItems(books[2], at: 0)
            #expect(shelf.items.map(\.title) == ["C", "A", "B"])
            _ = try context.save()
        }
        let container = try open()
        let shelves = try container.viewContext.fetch(FetchRequest(entityName: "Shelf"))
        let shelf = try #require(shelves.first as? TypedShelf)
        #expect(shelf.items.map(\.title) == ["C", "A", "B"])
        // A fetch of the abstract parent returns the sub-entity's class.
        let items = try container.viewContext.fetch(
            FetchRequest(
                entityName: "Item", sortDescriptors: [FetchSortDescriptor(keyPath: "title")]))
        #expect(items.map { $0 is TypedBook } == [true, true, true])
        #expect(items.compactMap { ($0 as? TypedBook)?.isbn } == ["0000000001", "0000000002", "0000000003"])
    }

    @Test func anUnfulfillableFaultReadsAsUnsetAndRecordsTheError() throws {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        try TypedCompanyModel.register(in: coordinator)
        let writer = ManagedObjectContext(coordinator: coordinator)
        let ann = try writer.insert(TypedEmployee.self)
        ann.firstName = "Ann"
        ann.lastName = "Lee"
        _ = try writer.save()
        let reader = ManagedObjectContext(coordinator: coordinator)
        let fault = try #require(reader.object(with: ann.objectID) as? TypedEmployee)
        try writer.delete(ann)
        _ = try writer.save()

        #expect(fault.firstName == "")
        #expect(fault.nickName == nil)
        #expect(fault.salary == 0)
        #expect(fault.department == nil)
        fault.lastName = "Changed"
        let errors = reader.takeAccessorErrors()
        // Five accesses, each failing to load the row.
        #expect(errors.count == 5)
        #expect(errors.allSatisfy { if case .faultNotFulfilled = $0 { true } else { false } })
        #expect(reader.accessorErrors.isEmpty)
        #expect(!reader.hasChanges)
    }

    @Test func aSlotOutsideTheLayoutIsRecordedNotACrash() throws {
        let container = try companyContainer()
        let employee = try container.viewContext.insert(TypedEmployee.self)
        #expect(employee.cdqiString(at: 99) == nil)
        employee.cdqiSetString("x", at: -1)
        #expect(employee.cdqiToOne(at: 5) == nil)
        // Relationship 0 of Employee is a to-one: asking for it as a to-many is refused.
        #expect(employee.cdqiToMany(at: 0).isEmpty)
        let errors = container.viewContext.takeAccessorErrors()
        #expect(
            errors == [
                .unknownKey(entity: "Employee", key: "attribute #99"),
                .unknownKey(entity: "Employee", key: "attribute #-1"),
                .unknownKey(entity: "Employee", key: "to-one relationship #5"),
                .unknownKey(entity: "Employee", key: "to-many relationship #0"),
            ])
    }

    @Test func registeringWithAnotherModelIsRefused() throws {
        let coordinator = try PersistentStoreCoordinator(model: try StoreTestSupport.fixtureModel("Library"), url: nil)
        #expect(throws: GeneratedModelError.self) { try TypedCompanyModel.register(in: coordinator) }
        do {
            try TypedCompanyModel.register(in: coordinator)
        } catch {
            #expect(error.description.contains("entities missing: Department, Employee"))
        }
        // Nothing was registered.
        let item = try #require(coordinator.layout.entity(named: "Item"))
        #expect(coordinator.objectClass(for: item) == ManagedObject.self)
    }
}

private extension TypedBook {
    var createdAtForTest: Date? {
        get { cdqiDate(at: 0) }
        set { cdqiSetDate(newValue, at: 0) }
    }
}
