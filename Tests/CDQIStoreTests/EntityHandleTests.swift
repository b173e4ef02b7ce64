import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQIStore

/// Objects and object IDs hold their entity through their context's handle (one per entity and
/// context), so that contexts on different threads never count references on one shared layout; they
/// still name, compare and hash by the coordinator's layouts.
@Suite("Entity handles")
struct EntityHandleTests {
    /// A file store with 3 departments of 2 employees each, saved; its coordinator and clean-up.
    private func savedCompany() throws -> (PersistentStoreCoordinator, () -> Void) {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        let writer = ManagedObjectContext(coordinator: coordinator)
        for number in 0..<3 {
            let department = try ContextTestSupport.insert(writer, "Department", ["name": "D\(number)"])
            for person in 0..<2 {
                try ContextTestSupport.insert(
                    writer, "Employee", ["firstName": "E\(number)-\(person)", "lastName": "L", "department": department])
            }
        }
        try writer.save()
        return (coordinator, cleanUp)
    }

    @Test("a context's objects of an entity share one handle on the coordinator's layout; another context's share another")
    func oneHandlePerContextAndEntity() throws {
        let (coordinator, cleanUp) = try savedCompany()
        defer { cleanUp() }
        let employee = try #require(coordinator.layout.entity(named: "Employee"))
        let department = try #require(coordinator.layout.entity(named: "Department"))
        let first = ManagedObjectContext(coordinator: coordinator)
        let second = ManagedObjectContext(coordinator: coordinator)
        let a = try first.fetch(FetchRequest(entityName: "Employee"))
        let b = try second.fetch(FetchRequest(entityName: "Employee"))
        #expect(a.count == 6 && b.count == 6)
        for object in a + b {
            #expect(object.entity === employee)
            #expect(object.objectID.entity === employee)
            #expect(object.entityHandle === object.objectID.handle)
        }
        #expect(Set(a.map { ObjectIdentifier($0.entityHandle) }).count == 1)
        #expect(Set(b.map { ObjectIdentifier($0.entityHandle) }).count == 1)
        #expect(a[0].entityHandle !== b[0].entityHandle)
        // The departments the rows name (faults made while reading them) hold the context's handle on
        // the Department layout.
        let departmentsOfA = try a.map { try #require($0.value(forKey: "department") as? ManagedObject) }
        #expect(Set(departmentsOfA.map(ObjectIdentifier.init)).count == 3)
        #expect(departmentsOfA.allSatisfy { $0.entity === department && $0.entityHandle === first.handle(for: department) })
        #expect(first.handle(for: department) !== second.handle(for: department))
        // IDs of the same rows from the two contexts are equal and hash alike.
        #expect(Set(a.map(\.objectID)) == Set(b.map(\.objectID)))
        #expect(Set(a.map(\.objectID) + b.map(\.objectID)).count == 6)
    }

    @Test("an ID passed to another context gives an object on that context's handle, equal to the ID")
    func passedIDs() throws {
        let (coordinator, cleanUp) = try savedCompany()
        defer { cleanUp() }
        let employee = try #require(coordinator.layout.entity(named: "Employee"))
        let first = ManagedObjectContext(coordinator: coordinator)
        let second = ManagedObjectContext(coordinator: coordinator)
        let ids = try first.fetch(FetchRequest(entityName: "Employee")).map(\.objectID)
        for id in ids {
            let object = second.object(with: id)
            #expect(object.objectID == id)
            #expect(object.objectID.hashValue == id.hashValue)
            #expect(object.entityHandle === second.handle(for: employee))
            #expect(object.objectID.handle === second.handle(for: employee))
            #expect(try object.value(forKey: "lastName") as? String == "L")
        }
        #expect(second.handle(for: employee) !== first.handle(for: employee))
    }

    @Test("an ID of another coordinator on the same model gives an object of this coordinator's layout")
    func idsOfAnotherCoordinator() throws {
        let (coordinator, cleanUp) = try savedCompany()
        defer { cleanUp() }
        let other = try PersistentStoreCoordinator(model: coordinator.model, url: nil)
        let foreignEmployee = try #require(other.layout.entity(named: "Employee"))
        let employee = try #require(coordinator.layout.entity(named: "Employee"))
        #expect(foreignEmployee !== employee)
        let context = ManagedObjectContext(coordinator: coordinator)
        let id = ManagedObjectID(entity: EntityHandle(foreignEmployee), store: coordinator.storeNumber, primaryKey: 1)
        let object = context.object(with: id)
        #expect(object.entity === employee)
        #expect(object.objectID.entity === employee)
        #expect(object.objectID == id)
        #expect(try object.value(forKey: "lastName") as? String == "L")
    }

    @Test("a context's unloaded to-many slots are one array per entity; another context's are another")
    func unloadedToManyPerContext() throws {
        let (coordinator, cleanUp) = try savedCompany()
        defer { cleanUp() }
        let first = ManagedObjectContext(coordinator: coordinator)
        let second = ManagedObjectContext(coordinator: coordinator)
        let a = try first.fetch(FetchRequest(entityName: "Department"))
        let b = try second.fetch(FetchRequest(entityName: "Department"))
        func storage(_ object: ManagedObject) -> UnsafeRawPointer? {
            object.toManyValues.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
        }
        #expect(a.count == 3 && b.count == 3)
        #expect(a.allSatisfy { $0.toManyValues.count == 1 && $0.toManyValues[0] == nil })
        #expect(Set(a.map(storage)).count == 1)
        #expect(Set(b.map(storage)).count == 1)
        #expect(storage(a[0]) != storage(b[0]))
        // Loading one department's employees leaves the others' slots unloaded.
        let employees = try #require(a[0].value(forKey: "employees") as? Set<ManagedObject>)
        #expect(employees.count == 2)
        #expect(a[0].toManyValues[0] != nil)
        #expect(a[1].toManyValues[0] == nil && a[2].toManyValues[0] == nil)
        #expect(b.allSatisfy { $0.toManyValues[0] == nil })
    }

    @Test("the unretained layout lookup gives what the retained one gives, and nothing out of range")
    func unretainedLookup() throws {
        let (coordinator, cleanUp) = try savedCompany()
        defer { cleanUp() }
        let layouts = coordinator.layout
        let numbers = coordinator.model.entities.compactMap { layouts.entity(named: $0.name)?.number }
        #expect(!numbers.isEmpty)
        for number in -1...((numbers.max() ?? 0) + 2) {
            let unretained = layouts.unretainedEntity(number: number)?.takeUnretainedValue()
            #expect(unretained === layouts.entity(number: number))
            #expect((unretained != nil) == numbers.contains(number))
        }
    }
}
