import CDQIModel
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// Stores whose bookkeeping was damaged outside our layer give typed "damaged store" errors, never a
/// trap or a raw SQLite message (issue 15).
@Suite("Damaged stores")
struct DamagedStoreTests {
    /// A Company store holding one Employee, closed, and a way to change it with raw SQL.
    private func storeWithOneEmployee() throws -> (URL, () -> Void) {
        let (coordinator, url, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        let context = ManagedObjectContext(coordinator: coordinator)
        let employee = try context.insertNewObject(forEntityName: "Employee")
        try employee.setValue("Ann", forKey: "firstName")
        try employee.setValue("Lee", forKey: "lastName")
        try context.save()
        return (url, cleanUp)
    }

    private func setMaximum(_ literal: String, at url: URL) throws {
        let connection = try SQLiteConnection(path: url.path)
        // Employee is entity 2 (Department 1, Employee 2, TestEntity 3: alphabetical).
        try connection.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(literal) WHERE Z_NAME = 'Employee'")
    }

    /// Saves one new Employee into the store and returns the error the save threw.
    private func saveError(_ url: URL) throws -> ContextError? {
        let coordinator = try PersistentStoreCoordinator(model: try StoreTestSupport.fixtureModel("Company"), url: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        let employee = try context.insertNewObject(forEntityName: "Employee")
        try employee.setValue("Bob", forKey: "firstName")
        try employee.setValue("Ames", forKey: "lastName")
        do {
            try context.save()
            return nil
        } catch {
            return error
        }
    }

    @Test("Z_MAX at Int64.max: the save throws a damaged-store error naming Z_PRIMARYKEY and the entity")
    func maximumKeyExhausted() throws {
        let (url, cleanUp) = try storeWithOneEmployee()
        defer { cleanUp() }
        try setMaximum("9223372036854775807", at: url)
        let error = try #require(try saveError(url))
        guard case .store(.damagedStore(let path, let reason)) = error else {
            Issue.record("expected a damaged-store error, got \(error)")
            return
        }
        #expect(path == url.path)
        #expect(reason.contains("Z_PRIMARYKEY.Z_MAX"))
        #expect(reason.contains("Employee"))
        #expect(reason.contains("9223372036854775807"))
    }

    @Test("Z_MAX stored as text or NULL: the save throws a damaged-store error naming the entity", arguments: ["'seven'", "NULL", "2.5"])
    func maximumKeyNotAnInteger(literal: String) throws {
        let (url, cleanUp) = try storeWithOneEmployee()
        defer { cleanUp() }
        try setMaximum(literal, at: url)
        let error = try #require(try saveError(url))
        guard case .store(.damagedStore(_, let reason)) = error else {
            Issue.record("expected a damaged-store error, got \(error)")
            return
        }
        #expect(reason.contains("Z_PRIMARYKEY.Z_MAX"))
        #expect(reason.contains("Employee"))
        #expect(error.description.contains("damaged"))
    }

    @Test("Z_MAX below the largest Z_PK: a damaged-store error, not a UNIQUE failure")
    func maximumBelowLargestKey() throws {
        let (url, cleanUp) = try storeWithOneEmployee()
        defer { cleanUp() }
        try setMaximum("0", at: url)
        let error = try #require(try saveError(url))
        guard case .store(.damagedStore(_, let reason)) = error else {
            Issue.record("expected a damaged-store error, got \(error)")
            return
        }
        #expect(reason == "Z_PRIMARYKEY.Z_MAX of Employee (Z_ENT 2) is 0, below the largest Z_PK 1 of ZEMPLOYEE: new keys would collide")
    }

    @Test("The last key below Int64.max is still allocated")
    func lastKeyAllocated() throws {
        let (url, cleanUp) = try storeWithOneEmployee()
        defer { cleanUp() }
        try setMaximum("9223372036854775806", at: url)
        #expect(try saveError(url) == nil)
        let connection = try SQLiteConnection(path: url.path)
        #expect(try ContextTestSupport.rows(connection, "SELECT MAX(Z_PK) FROM ZEMPLOYEE") == [["9223372036854775807"]])
    }

    /// A store of three Employees (keys 1, 2, 3) whose second row's Z_ENT is set to `literal`.
    private func storeWithBadEntityNumber(_ literal: String) throws -> (URL, () -> Void) {
        let (coordinator, url, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        let context = ManagedObjectContext(coordinator: coordinator)
        for name in ["A", "B", "C"] {
            let employee = try context.insertNewObject(forEntityName: "Employee")
            try employee.setValue(name, forKey: "firstName")
            try employee.setValue(name, forKey: "lastName")
        }
        try context.save()
        let connection = try SQLiteConnection(path: url.path)
        try connection.execute("UPDATE ZEMPLOYEE SET Z_ENT = \(literal) WHERE Z_PK = 2")
        return (url, cleanUp)
    }

    @Test(
        "a row whose Z_ENT is no entity (999, NULL, text) is reported by fetches, naming table and Z_PK, never dropped",
        arguments: [("999", "999"), ("NULL", "NULL"), ("'x'", "'x' (text)")])
    func unknownEntityNumber(literal: String, shown: String) throws {
        let (url, cleanUp) = try storeWithBadEntityNumber(literal)
        defer { cleanUp() }
        let coordinator = try PersistentStoreCoordinator(model: try StoreTestSupport.fixtureModel("Company"), url: url)
        let request = FetchRequest(entityName: "Employee")
        let expected = "the row Z_PK 2 of ZEMPLOYEE has Z_ENT \(shown), which is no entity of the model (run 'cdqi check' on the store)"
        #expect(throws: StoreError.damagedStore(path: url.path, reason: expected)) {
            _ = try ManagedObjectContext(coordinator: coordinator).fetch(request)
        }
        #expect(throws: StoreError.damagedStore(path: url.path, reason: expected)) {
            _ = try ManagedObjectContext(coordinator: coordinator).fetchObjectIDs(request)
        }
        #expect(throws: StoreError.damagedStore(path: url.path, reason: expected)) {
            let cursor = try ManagedObjectContext(coordinator: coordinator).cursor(for: request)
            while try cursor.next() != nil {}
        }
    }
}
