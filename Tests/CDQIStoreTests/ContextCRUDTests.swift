import CDQIModel
import CDQIPredicate
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// Inserting, saving, reading back, updating and deleting objects through a store file.
@Suite("Context: create, read, update, delete")
struct ContextCRUDTests {
    @Test("a saved graph gets keys from Z_PRIMARYKEY, Z_OPT 1, and reads back in a new coordinator")
    func roundTrip() throws {
        let (coordinator, url, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let research = try ContextTestSupport.insert(context, "Department", ["name": "Research", "budget": Decimal(string: "1234.5")])
        let ada = try ContextTestSupport.insert(
            context, "Employee",
            [
                "firstName": "Ada", "lastName": "Lovelace", "salary": 100,
                "hireDate": Date(timeIntervalSinceReferenceDate: 1000.5), "department": research,
            ])
        let alan = try ContextTestSupport.insert(
            context, "Employee",
            [
                "firstName": "Alan", "lastName": "Turing", "salary": 200, "department": research,
            ])
        #expect(ada.objectID.isTemporaryID)
        #expect(ada.objectID.uriString.hasPrefix("x-coredata:///Employee/t"))
        #expect(context.insertedObjects == [research, ada, alan])
        #expect(context.hasChanges)

        try context.save()

        #expect(!context.hasChanges)
        #expect(context.insertedObjects.isEmpty)
        #expect(ada.objectID.primaryKey == 1 && alan.objectID.primaryKey == 2 && research.objectID.primaryKey == 1)
        let uuid = coordinator.storeIdentifier
        #expect(ada.objectID.uriString == "x-coredata://\(uuid)/Employee/p1")
        #expect(
            try ContextTestSupport.rows(file: url, "SELECT Z_ENT, Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") == [
                ["1", "Department", "1"], ["2", "Employee", "2"], ["3", "TestEntity", "0"],
            ])
        #expect(
            try ContextTestSupport.rows(file: url, "SELECT Z_PK, Z_ENT, Z_OPT, ZBUDGET, ZNAME FROM ZDEPARTMENT") == [
                ["1", "1", "1", "r:1234.5", "Research"]
            ])
        #expect(
            try ContextTestSupport.rows(
                file: url,
                "SELECT Z_PK, Z_ENT, Z_OPT, ZFIRSTNAME, ZLASTNAME, ZNICKNAME, ZSALARY, ZDEPARTMENT, ZHIREDATE FROM ZEMPLOYEE ORDER BY Z_PK") == [
                    ["1", "2", "1", "Ada", "Lovelace", "NULL", "100", "1", "r:1000.5"],
                    ["2", "2", "1", "Alan", "Turing", "NULL", "200", "1", "NULL"],
                ])

        // A new coordinator on the same file: what another process would see.
        let reopened = try PersistentStoreCoordinator(model: try StoreTestSupport.fixtureModel("Company"), url: url)
        let fresh = ManagedObjectContext(coordinator: reopened)
        let departmentID = try #require(fresh.objectID(forURIString: research.objectID.uriString))
        let department = fresh.object(with: departmentID)
        #expect(department.isFault)
        #expect(try department.value(forKey: "name") as? String == "Research")
        #expect(!department.isFault)
        #expect(try department.value(forKey: "budget") as? Decimal == Decimal(string: "1234.5"))
        let employees = try #require(try department.value(forKey: "employees") as? Set<ManagedObject>)
        #expect(Set(try employees.map { try $0.value(forKey: "firstName") as? String }) == ["Ada", "Alan"])
        let adaAgain = try #require(employees.first { (try? $0.value(forKey: "firstName") as? String) == "Ada" })
        #expect(try adaAgain.value(forKey: "salary") as? Int32 == 100)
        #expect(try adaAgain.value(forKey: "hireDate") as? Date == Date(timeIntervalSinceReferenceDate: 1000.5))
        #expect(try adaAgain.value(forKey: "department") as? ManagedObject === department)

        // Update: Z_OPT 1 → 2 on the changed row only.
        try adaAgain.setValue(150, forKey: "salary")
        #expect(adaAgain.isUpdated)
        #expect(fresh.updatedObjects == [adaAgain])
        try fresh.save()
        #expect(
            try ContextTestSupport.rows(file: url, "SELECT Z_PK, Z_OPT, ZSALARY FROM ZEMPLOYEE ORDER BY Z_PK") == [
                ["1", "2", "150"], ["2", "1", "200"],
            ])

        // Delete: the row goes; the department loses the employee (and its Z_OPT goes up).
        let alanAgain = try #require(employees.first { $0 !== adaAgain })
        try fresh.delete(alanAgain)
        #expect(alanAgain.isDeleted)
        #expect(fresh.deletedObjects == [alanAgain])
        try fresh.save()
        #expect(alanAgain.managedObjectContext == nil)
        #expect(try ContextTestSupport.rows(file: url, "SELECT Z_PK FROM ZEMPLOYEE") == [["1"]])
        #expect(try ContextTestSupport.rows(file: url, "SELECT Z_OPT FROM ZDEPARTMENT") == [["2"]])
        #expect(try department.objects(forKey: "employees") == [adaAgain])
    }

    @Test("one save updating different columns of different rows writes each row's own columns")
    func updatesOfDifferentColumns() throws {
        // Employee's attribute slots: firstName 0, hireDate 1, …; its relationship 0 is department. The
        // UPDATE that sets firstName and the one that sets department must not be taken for each other,
        // nor firstName + hireDate for firstName + a department set to NULL.
        let context = try ContextTestSupport.memoryContext("Company")
        let research = try ContextTestSupport.insert(context, "Department", ["name": "Research"])
        let sales = try ContextTestSupport.insert(context, "Department", ["name": "Sales"])
        func employee(_ name: String) throws -> ManagedObject {
            try ContextTestSupport.insert(context, "Employee", ["firstName": name, "lastName": "L", "department": research])
        }
        let (ann, bob, cleo, dan) = (try employee("Ann"), try employee("Bob"), try employee("Cleo"), try employee("Dan"))
        try context.save()
        try ann.setValue("Anna", forKey: "firstName")
        try bob.setValue(sales, forKey: "department")
        try cleo.setValue("Cleopatra", forKey: "firstName")
        try cleo.setValue(Date(timeIntervalSinceReferenceDate: 86_400), forKey: "hireDate")
        try dan.setValue("Daniel", forKey: "firstName")
        try dan.setValue(nil, forKey: "department")
        try context.save()
        let rows = try ContextTestSupport.rows(
            context.coordinator,
            "SELECT e.ZFIRSTNAME, IFNULL(d.ZNAME, '-'), IFNULL(e.ZHIREDATE, '-'), e.Z_OPT FROM ZEMPLOYEE e LEFT JOIN ZDEPARTMENT d ON d.Z_PK = e.ZDEPARTMENT ORDER BY e.Z_PK"
        )
        #expect(
            rows == [
                ["Anna", "Research", "-", "2"], ["Bob", "Sales", "-", "2"], ["Cleopatra", "Research", "86400", "2"],
                ["Daniel", "-", "-", "2"],
            ])
    }

    @Test("every attribute type is stored as Core Data stores it and read back with its type")
    func everyAttributeType() throws {
        let (coordinator, url, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        let link = try #require(URL(string: "https://example.com/a?b=c"))
        let object = try ContextTestSupport.insert(
            context, "TestEntity",
            [
                "binary": Data([0, 1, 2, 255]), "boolean": true, "date": Date(timeIntervalSinceReferenceDate: 12345.25),
                "decimal": Decimal(string: "10.11"), "double": 3.5, "float": Float(1.25), "integer16": Int16(-7),
                "integer32": 70000, "integer64": Int64(1) << 40, "string": "héllo", "transformable": Data([9]),
                "uri": link, "uuid": uuid,
            ])
        try context.save()
        #expect(
            try ContextTestSupport.rows(
                file: url,
                """
                SELECT ZBOOLEAN, ZINTEGER16, ZINTEGER32, ZINTEGER64, ZDATE, ZDOUBLE, ZFLOAT, ZDECIMAL, ZSTRING, ZURI, \
                ZUUID, ZTRANSFORMABLE, ZBINARY FROM ZTESTENTITY
                """) == [
                    [
                        "1", "-7", "70000", "1099511627776", "r:12345.25", "r:3.5", "r:1.25", "r:10.11", "héllo",
                        "https://example.com/a?b=c", "x'E621E1F8C36C495A93FC0C247A3E6E5F'", "x'09'", "x'000102FF'",
                    ]
                ])
        // typeof: dates and decimals are REAL, UUIDs BLOB, URIs TEXT.
        #expect(
            try ContextTestSupport.rows(
                file: url,
                "SELECT typeof(ZDATE), typeof(ZDECIMAL), typeof(ZUUID), typeof(ZURI), typeof(ZBOOLEAN) FROM ZTESTENTITY") == [
                    ["real", "real", "blob", "text", "integer"]
                ])

        let fresh = ManagedObjectContext(coordinator: coordinator)
        let read = try fresh.existingObject(with: object.objectID)
        #expect(read !== object)
        #expect(try read.value(forKey: "binary") as? Data == Data([0, 1, 2, 255]))
        #expect(try read.value(forKey: "boolean") as? Bool == true)
        #expect(try read.value(forKey: "date") as? Date == Date(timeIntervalSinceReferenceDate: 12345.25))
        #expect(try read.value(forKey: "decimal") as? Decimal == Decimal(string: "10.11"))
        #expect(try read.value(forKey: "double") as? Double == 3.5)
        #expect(try read.value(forKey: "float") as? Float == 1.25)
        #expect(try read.value(forKey: "integer16") as? Int16 == -7)
        #expect(try read.value(forKey: "integer32") as? Int32 == 70000)
        #expect(try read.value(forKey: "integer64") as? Int64 == 1_099_511_627_776)
        #expect(try read.value(forKey: "string") as? String == "héllo")
        #expect(try read.value(forKey: "transformable") as? Data == Data([9]))
        #expect(try read.value(forKey: "uri") as? URL == link)
        #expect(try read.value(forKey: "uuid") as? UUID == uuid)
        #expect(try read.value(forKey: "scratch") == nil)
        #expect(try read.storedValue(forKey: "date") == .date(secondsSinceReferenceDate: 12345.25))
    }

    @Test("hostile strings are stored literally, and the tables survive")
    func hostileStrings() throws {
        let (coordinator, url, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let hostile = [
            "Robert'); DROP TABLE ZEMPLOYEE;--", "\"quoted\" and 'single'", "100%_\\ LIKE", "nul\u{0}inside",
            "?1 ?2 :name @x $y", "",
        ]
        for (index, text) in hostile.enumerated() {
            try ContextTestSupport.insert(context, "Employee", ["firstName": text, "lastName": "L\(index)"])
        }
        try context.save()
        #expect(try ContextTestSupport.rows(file: url, "SELECT ZFIRSTNAME FROM ZEMPLOYEE ORDER BY Z_PK").map { $0[0] } == hostile)
        #expect(try ContextTestSupport.rows(file: url, "SELECT length(CAST(ZFIRSTNAME AS BLOB)) FROM ZEMPLOYEE WHERE Z_PK = 4") == [["10"]])
        let fresh = ManagedObjectContext(coordinator: coordinator)
        let employee = fresh.object(with: try #require(fresh.objectID(forURIString: "x-coredata://\(coordinator.storeIdentifier)/Employee/p1")))
        #expect(try employee.value(forKey: "firstName") as? String == hostile[0])
    }

    @Test("one object per ID per context; another context has its own")
    func uniquing() throws {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let department = try ContextTestSupport.insert(context, "Department", ["name": "Sales"])
        let employee = try ContextTestSupport.insert(context, "Employee", ["firstName": "A", "lastName": "B", "department": department])
        try context.save()
        #expect(context.object(with: department.objectID) === department)
        #expect(try context.existingObject(with: employee.objectID) === employee)

        let other = ManagedObjectContext(coordinator: coordinator)
        let first = other.object(with: employee.objectID)
        #expect(first !== employee)
        #expect(other.object(with: employee.objectID) === first)
        // The to-one read from the row is the same instance as the department fetched by ID.
        let viaRelationship = try #require(try first.value(forKey: "department") as? ManagedObject)
        #expect(other.object(with: department.objectID) === viaRelationship)
        #expect(viaRelationship.objectID == department.objectID)
        #expect(other.registeredObjects.count == 2)
    }

    @Test("temporary IDs become permanent after save; the old ID no longer finds the object")
    func temporaryToPermanent() throws {
        let context = try ContextTestSupport.memoryContext("Company")
        let department = try ContextTestSupport.insert(context, "Department", ["name": "Ops"])
        let temporary = department.objectID
        #expect(temporary.isTemporaryID && temporary.primaryKey == nil)
        #expect(context.registeredObject(for: temporary) === department)
        #expect(context.objectID(forURIString: temporary.uriString) == temporary)
        try context.save()
        let permanent = department.objectID
        #expect(!permanent.isTemporaryID && permanent.primaryKey == 1)
        #expect(permanent != temporary)
        #expect(context.registeredObject(for: permanent) === department)
        #expect(context.registeredObject(for: temporary) == nil)
        #expect(
            permanent.reference
                == ObjectReference(
                    entityName: "Department", storeIdentifier: context.coordinator.storeIdentifier, identity: .primaryKey(1)))
        #expect(ObjectReference(uriString: permanent.uriString) == permanent.reference)
        #expect(context.objectID(for: permanent.reference) == permanent)
        #expect(context.object(for: permanent.reference) === department)
        #expect(context.object(for: ObjectReference(entityName: "Department", storeIdentifier: "ELSEWHERE", identity: .primaryKey(1))) == nil)
    }

    @Test("existingObject throws for a row that does not exist")
    func missingObject() throws {
        let context = try ContextTestSupport.memoryContext("Company")
        let id = try #require(context.objectID(forURIString: "x-coredata://\(context.coordinator.storeIdentifier)/Employee/p42"))
        do {
            _ = try context.existingObject(with: id)
            Issue.record("expected objectNotFound")
        } catch {
            guard case .objectNotFound(let uri) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(uri.hasSuffix("/Employee/p42"))
        }
        // A fault for it fails when used.
        let fault = context.object(with: id)
        #expect(throws: ManagedObjectError.self) { try fault.value(forKey: "firstName") }
        #expect(context.objectID(forURIString: "x-coredata://OTHER-STORE/Employee/p1") == nil)

        // A key of the right table but another entity's row is not found either.
        let library = try ContextTestSupport.memoryContext("Library")
        let album = try ContextTestSupport.insert(library, "Album", ["title": "A", "createdAt": Date()])
        try library.save()
        let store = library.coordinator.storeIdentifier
        let asBook = try #require(library.objectID(forURIString: "x-coredata://\(store)/Book/p1"))
        #expect(throws: ContextError.self) { try ManagedObjectContext(coordinator: library.coordinator).existingObject(with: asBook) }
        let asItem = try #require(library.objectID(forURIString: "x-coredata://\(store)/Item/p1"))
        #expect(asItem == album.objectID)  // the same row: equality goes by the hierarchy's root
        #expect(context.objectID(forURIString: "x-coredata://\(context.coordinator.storeIdentifier)/Nope/p1") == nil)
    }

    @Test("rollback discards inserts, updates and deletes; reset forgets every object")
    func rollbackAndReset() throws {
        let (coordinator, url, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let department = try ContextTestSupport.insert(context, "Department", ["name": "Sales"])
        let kept = try ContextTestSupport.insert(context, "Employee", ["firstName": "Kept", "lastName": "K", "department": department])
        let doomed = try ContextTestSupport.insert(context, "Employee", ["firstName": "Doomed", "lastName": "D", "department": department])
        try context.save()

        try department.setValue("Marketing", forKey: "name")
        let added = try ContextTestSupport.insert(context, "Employee", ["firstName": "New", "lastName": "N", "department": department])
        try context.delete(doomed)
        #expect(context.hasChanges)
        #expect(try Set(department.objects(forKey: "employees")) == [kept, added])

        context.rollback()
        #expect(!context.hasChanges)
        #expect(context.insertedObjects.isEmpty && context.deletedObjects.isEmpty && context.updatedObjects.isEmpty)
        #expect(added.managedObjectContext == nil)
        #expect(!doomed.isDeleted)
        #expect(try department.value(forKey: "name") as? String == "Sales")
        #expect(try Set(department.objects(forKey: "employees")) == [kept, doomed])
        try context.save()
        #expect(try ContextTestSupport.rows(file: url, "SELECT COUNT(*) FROM ZEMPLOYEE") == [["2"]])
        #expect(try ContextTestSupport.rows(file: url, "SELECT ZNAME, Z_OPT FROM ZDEPARTMENT") == [["Sales", "1"]])

        try kept.setValue("Changed", forKey: "firstName")
        context.reset()
        #expect(context.registeredObjects.isEmpty)
        #expect(!context.hasChanges)
        #expect(kept.managedObjectContext == nil)
        #expect(throws: ManagedObjectError.noContext(entity: "Employee")) { try kept.value(forKey: "firstName") }
        let again = try context.existingObject(with: kept.objectID)
        #expect(try again.value(forKey: "firstName") as? String == "Kept")
    }

    @Test("refresh drops or keeps unsaved changes over the store's current values")
    func refresh() throws {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let employee = try ContextTestSupport.insert(context, "Employee", ["firstName": "Grace", "lastName": "Hopper", "salary": 10])
        try context.save()

        let other = ManagedObjectContext(coordinator: coordinator)
        let copy = try other.existingObject(with: employee.objectID)
        try copy.setValue(20, forKey: "salary")
        try other.save()

        try employee.setValue("Amazing", forKey: "nickName")
        try context.refresh(employee, mergeChanges: true)
        #expect(try employee.value(forKey: "salary") as? Int32 == 20)
        #expect(try employee.value(forKey: "nickName") as? String == "Amazing")
        #expect(employee.changedValues().keys.sorted() == ["nickName"])
        try context.save()  // no conflict: the snapshot is the store's current version

        try employee.setValue(99, forKey: "salary")
        try context.refresh(employee, mergeChanges: false)
        #expect(employee.isFault)
        #expect(!context.hasChanges)
        #expect(try employee.value(forKey: "salary") as? Int32 == 20)
        #expect(try employee.value(forKey: "nickName") as? String == "Amazing")
    }

    @Test("performAndWait runs now; a background task's saved object is visible by ID")
    func performing() async throws {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let name = try context.performAndWait { () throws -> String in
            let department = try ContextTestSupport.insert(context, "Department", ["name": "Now"])
            return try department.value(forKey: "name") as? String ?? ""
        }
        #expect(name == "Now")
        let count = await context.perform { context.insertedObjects.count }
        #expect(count == 1)

        let id = try await coordinator.performBackgroundTask { background in
            let department = try background.insertNewObject(forEntityName: "Department")
            try department.setValue("Background", forKey: "name")
            try background.save()
            return department.objectID
        }
        #expect(!id.isTemporaryID)
        #expect(try context.existingObject(with: id).value(forKey: "name") as? String == "Background")
    }

    @Test("a container sets up a model, a store and a context in one line")
    func container() throws {
        let container = try PersistentContainer(model: try StoreTestSupport.fixtureModel("Company"), url: nil)
        let department = try container.viewContext.insertNewObject(forEntityName: "Department")
        try department.setValue("One", forKey: "name")
        try container.viewContext.save()
        let other = container.newContext()
        #expect(try other.existingObject(with: department.objectID).value(forKey: "name") as? String == "One")
        #expect(try ContextTestSupport.rows(container.coordinator, "SELECT ZNAME FROM ZDEPARTMENT") == [["One"]])
    }
}
