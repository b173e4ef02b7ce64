import CDQIStore
import CoreDataQueryInterface
import Foundation
import Testing

/// Selecting the object itself (the root proxy `$0`): its ``ManagedObjectID``, as Core Data's
/// dictionary fetches give for the evaluated object. IDs are checked against the IDs of the same
/// objects fetched normally; names against the fixture's table (see `FixtureData`).
@Suite struct QuerySelectObjectTests {
    private func objects(_ context: ManagedObjectContext, lastName: String) throws -> [CompanyEmployee] {
        try context.from(CompanyEmployee.self).filter { $0.lastName == lastName }.order { $0.firstName }.all()
    }

    @Test func typedObjectIDBesideAnAttribute() throws {
        let (_, context) = try CompanyQueries.context()
        // Salaries of 100,000 or more: Ann 120000, Chloé 105000, Grace 150000.
        let rows = try context.from(CompanyEmployee.self)
            .filter { $0.salary >= 100_000 }
            .order { $0.firstName }
            .select { ($0, $0.firstName) }
            .all()
        let expected = try context.from(CompanyEmployee.self).filter { $0.salary >= 100_000 }.order { $0.firstName }.all()
        let ids: [ManagedObjectID?] = rows.map(\.0)
        let names: [String?] = rows.map(\.1)
        #expect(names == ["Ann", "Chloé", "Grace"])
        #expect(ids == expected.map(\.objectID))
        #expect(ids.allSatisfy { $0?.entityName == "Employee" && $0?.isTemporaryID == false })
    }

    @Test func dictionaryObjectIDIsNamedObjectID() throws {
        let (_, context) = try CompanyQueries.context()
        // The Smiths: Bob and David.
        let rows = try context.from(CompanyEmployee.self)
            .filter { $0.lastName == "Smith" }
            .order { $0.firstName }
            .select { [$0, $0.lastName] }
            .all()
        #expect(rows.map { Set($0.keys) } == [["objectID", "lastName"], ["objectID", "lastName"]])
        #expect(rows.map { $0["lastName"] as? String } == ["Smith", "Smith"])
        let ids = rows.map { $0["objectID"] as? ManagedObjectID }
        #expect(ids == (try objects(context, lastName: "Smith")).map(\.objectID))
        // Named as asked.
        let aliased = try context.from(CompanyEmployee.self)
            .filter { $0.lastName == "Smith" }
            .order { $0.firstName }
            .select { [alias($0, name: "id"), $0.firstName] }
            .all()
        #expect(aliased.map { $0["firstName"] as? String } == ["Bob", "David"])
        #expect(aliased.map { $0["id"] as? ManagedObjectID } == ids)
    }

    @Test func arrayOfTheObjectGivesEveryID() throws {
        let (_, context) = try CompanyQueries.context()
        let ids = try context.from(CompanyEmployee.self).array { $0 }
        #expect(ids.count == 12)
        #expect(Set(ids.compactMap { $0 }) == Set(try context.from(CompanyEmployee.self).all().map(\.objectID)))
        // The IDs find the objects: the Lees are Ann and Karen.
        let leeIDs = try context.from(CompanyEmployee.self).filter { $0.lastName == "Lee" }.order { $0.firstName }.array { $0 }
        let lees = try leeIDs.map { try context.existingObject(with: try #require($0)).value(forKey: "firstName") as? String }
        #expect(lees == ["Ann", "Karen"])
    }

    @Test func groupedByTheObject() throws {
        let (_, context) = try CompanyQueries.context()
        // One group per employee of Support (Jack 45000, Karen 47000): each group's count is 1.
        let rows = try context.from(CompanyEmployee.self)
            .filter { $0.department.name == "Support" }
            .select { ($0, $0.salary.cdqiMax()) }
            .groupBy { $0 }
            .order { $0.firstName }
            .all()
        let maximums: [Int32?] = rows.map(\.1)
        #expect(maximums == [45_000, 47_000])
        let ids: [ManagedObjectID?] = rows.map(\.0)
        let support = try context.from(CompanyEmployee.self).filter { $0.department.name == "Support" }.order { $0.firstName }.all()
        #expect(ids == support.map(\.objectID))
    }

    @Test func theObjectSelectedButNotGroupedIsRefused() throws {
        let (_, context) = try CompanyQueries.context()
        #expect(throws: QueryError.self) {
            try context.from(CompanyEmployee.self).select { ($0, $0.lastName) }.groupBy { $0.lastName }.all()
        }
    }
}
