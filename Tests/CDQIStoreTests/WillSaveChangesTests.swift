import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// A department that runs a test's code in `willSave()`.
final class WillSaveDepartment: ManagedObject {
    var onWillSave: ((WillSaveDepartment) -> Void)?
    override func willSave() { onWillSave?(self) }
}

/// A save decides which objects it writes after their `willSave()`: changes made there count, even to
/// objects whose changes the save had already looked at.
@Suite("Changes made in willSave")
struct WillSaveChangesTests {
    /// A store with departments "A" and "B" (primary keys 1 and 2, row version 1) and whatever
    /// `prepare` adds (given the writing context and A), and a context that has fetched both.
    private func fetchedPair(
        prepare: (ManagedObjectContext, ManagedObject) throws -> Void = { _, _ in }
    ) throws -> (
        context: ManagedObjectContext, a: WillSaveDepartment, b: WillSaveDepartment, url: URL, cleanUp: () -> Void
    ) {
        let (coordinator, url, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        coordinator.register(WillSaveDepartment.self, forEntityName: "Department")
        let writer = ManagedObjectContext(coordinator: coordinator)
        let departments = try ["A", "B"].map { name in
            let department = try writer.insertNewObject(forEntityName: "Department")
            try department.setValue(name, forKey: "name")
            try department.setValue(Decimal(1), forKey: "budget")
            return department
        }
        try prepare(writer, departments[0])
        try writer.save()
        let context = ManagedObjectContext(coordinator: coordinator)
        let request = FetchRequest(entityName: "Department", sortDescriptors: [FetchSortDescriptor(keyPath: "name")])
        let fetched = try context.fetch(request).compactMap { $0 as? WillSaveDepartment }
        #expect(fetched.count == 2)
        return (context, try #require(fetched.first), try #require(fetched.last), url, cleanUp)
    }

    @Test("a change that willSave() takes back is not written: the row keeps its version")
    func changeTakenBack() throws {
        let (context, a, _, url, cleanUp) = try fetchedPair()
        defer { cleanUp() }
        try a.setValue("A2", forKey: "name")
        #expect(a.isUpdated)
        a.onWillSave = { try? $0.setValue("A", forKey: "name") }
        let changes = try context.save()
        #expect(changes.isEmpty)
        #expect(!a.isUpdated && !context.hasChanges)
        #expect(try ContextTestSupport.rows(file: url, "SELECT ZNAME, Z_OPT FROM ZDEPARTMENT ORDER BY Z_PK") == [["A", "1"], ["B", "1"]])
    }

    @Test("an object whose changes cancelled out is written when another's willSave() changes it")
    func unchangedObjectChangedByAnother() throws {
        let (context, a, b, url, cleanUp) = try fetchedPair()
        defer { cleanUp() }
        // B is touched first and has no change left: the save finds nothing to write for it, and gives
        // it no willSave().
        try b.setValue("X", forKey: "name")
        try b.setValue("B", forKey: "name")
        #expect(!b.hasChanges)
        var calls: [String] = []
        b.onWillSave = { _ in calls.append("B") }
        a.onWillSave = { _ in
            calls.append("A")
            try? b.setValue("B2", forKey: "name")
        }
        try a.setValue("A2", forKey: "name")
        let changes = try context.save()
        #expect(calls == ["A"])
        #expect(changes.updated == [a.objectID, b.objectID])
        #expect(try ContextTestSupport.rows(file: url, "SELECT ZNAME, Z_OPT FROM ZDEPARTMENT ORDER BY Z_PK") == [["A2", "2"], ["B2", "2"]])
    }

    @Test("an object whose to-one change cancelled out is written when another's willSave() sets it again")
    func toOneChangedByAnother() throws {
        let (context, a, b, url, cleanUp) = try fetchedPair { writer, a in
            let hired = try writer.insertNewObject(forEntityName: "Employee")
            try hired.setValue("Ada", forKey: "firstName")
            try hired.setValue("Lovelace", forKey: "lastName")
            try hired.setValue(a, forKey: "department")
        }
        defer { cleanUp() }
        let employee = try #require(try context.fetch(FetchRequest(entityName: "Employee")).first)
        // Moved to B and back to A: touched, with nothing to write.
        try employee.setValue(b, forKey: "department")
        try employee.setValue(a, forKey: "department")
        #expect(!employee.hasChanges)
        a.onWillSave = { _ in try? employee.setValue(b, forKey: "department") }
        try a.setValue("A2", forKey: "name")
        let changes = try context.save()
        #expect(changes.updated.contains(employee.objectID) && changes.updated.contains(a.objectID))
        // B's primary key is 2; the employee's row was at version 1.
        #expect(try ContextTestSupport.rows(file: url, "SELECT ZDEPARTMENT, Z_OPT FROM ZEMPLOYEE") == [["2", "2"]])
    }
}
