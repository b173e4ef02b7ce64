import CDQIModel
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// Saves inside `inOneTransaction` are savepoints of one transaction: other connections see none of them
/// before it commits, all of them after, and none when the body throws; a save refused inside writes
/// nothing and leaves the earlier saves in place. And `setToOneLeavingInverseUnloaded` writes the
/// reference without reading the destination's members.
@Suite struct OneTransactionTests {
    struct Stop: Error {}

    private func insertDepartment(_ name: String, in context: ManagedObjectContext) throws {
        let department = try context.insertNewObject(forEntityName: "Department")
        try department.setValue(name, forKey: "name")
        try context.save()
    }

    @Test func savesCommitTogether() throws {
        let (coordinator, url, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        try coordinator.inOneTransaction {
            try insertDepartment("A", in: context)
            try insertDepartment("B", in: context)
            #expect(try ContextTestSupport.rows(file: url, "SELECT count(*) FROM ZDEPARTMENT") == [["0"]])
            // Refused by validation (no name): it writes nothing, the two saves before it stay.
            _ = try context.insertNewObject(forEntityName: "Department")
            #expect(throws: ContextError.self) { try context.save() }
            context.reset()
            try insertDepartment("C", in: context)
        }
        #expect(try ContextTestSupport.rows(file: url, "SELECT Z_PK, ZNAME FROM ZDEPARTMENT ORDER BY Z_PK") == [["1", "A"], ["2", "B"], ["3", "C"]])
    }

    @Test func aThrowingBodyWritesNothing() throws {
        let (coordinator, url, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        try insertDepartment("Before", in: context)
        #expect(throws: Stop.self) {
            try coordinator.inOneTransaction {
                try insertDepartment("A", in: context)
                try insertDepartment("B", in: context)
                throw Stop()
            }
        }
        #expect(try ContextTestSupport.rows(file: url, "SELECT ZNAME FROM ZDEPARTMENT") == [["Before"]])
        #expect(try ContextTestSupport.rows(coordinator, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Department'") == [["1"]])
        // The connection is usable afterwards, outside any transaction.
        context.reset()
        try insertDepartment("After", in: context)
        #expect(try ContextTestSupport.rows(file: url, "SELECT ZNAME FROM ZDEPARTMENT ORDER BY Z_PK") == [["Before"], ["After"]])
    }

    @Test func aToOneSetLeavingTheInverseUnloadedIsSavedAndReadBack() throws {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        let department = try context.insertNewObject(forEntityName: "Department")
        try department.setValue("Sales", forKey: "name")
        try context.save()
        let id = department.objectID
        context.reset()

        let fault = context.object(with: id)
        let employee = try context.insertNewObject(forEntityName: "Employee")
        try employee.setValue("Ann", forKey: "firstName")
        try employee.setValue("Lee", forKey: "lastName")
        try employee.setToOneLeavingInverseUnloaded(fault, forKey: "department")
        #expect(fault.isFault)
        #expect(try employee.object(forKey: "department") === fault)
        try context.save()
        context.reset()
        let members = try context.object(with: id).objects(forKey: "employees")
        #expect(try members.map { try $0.value(forKey: "firstName") as? String } == ["Ann"])
    }
}
