import CDQIModel
import CDQIPredicate
import CDQIStore
import Foundation
import Testing

/// The evaluated object (`SELF`, Core Data's `expressionForEvaluatedObject()`) in a dictionary fetch:
/// its object ID, as Core Data gives, never its bare primary key.
@Suite("Dictionary fetches of the evaluated object")
struct DictionaryFetchObjectTests {
    private let objectID = FetchedProperty.expression(
        ExpressionDescription(name: "objectID", expression: .evaluatedObject, resultType: .objectID))

    /// Employees 1 Ann 100, 2 Bob 300, 3 Cy 200, 4 Di (no salary), 5 Ed 50; no departments.
    private func company() throws -> SQLiteStore {
        let store = try SQLiteStore(model: try StoreTestSupport.fixtureModel("Company"), url: nil)
        try store.connection.execute(
            """
            INSERT INTO ZEMPLOYEE (Z_PK, Z_ENT, Z_OPT, ZFIRSTNAME, ZLASTNAME, ZSALARY) VALUES
                (1, 2, 1, 'Ann', 'Lee', 100), (2, 2, 1, 'Bob', 'Kay', 300), (3, 2, 1, 'Cy', 'Lee', 200),
                (4, 2, 1, 'Di', 'Ray', NULL), (5, 2, 1, 'Ed', 'Fox', 50);
            """)
        return store
    }

    private func employee(_ key: Int64, in store: SQLiteStore) -> StoredValue {
        .objectID(ObjectReference(entityName: "Employee", storeIdentifier: store.metadata.uuid, identity: .primaryKey(key)))
    }

    @Test("SELF beside a key path gives each row's object ID")
    func objectIDBesideAKeyPath() throws {
        let store = try company()
        var request = FetchRequest(
            entityName: "Employee", predicate: try PredicateNode(format: "lastName == 'Lee'"),
            sortDescriptors: [FetchSortDescriptor(keyPath: "firstName")])
        request.propertiesToFetch = [objectID, "firstName"]
        #expect(
            try store.fetchDictionaries(request) == [
                ["objectID": employee(1, in: store), "firstName": .string("Ann")],
                ["objectID": employee(3, in: store), "firstName": .string("Cy")],
            ])
    }

    @Test("grouped by SELF: one group per object, aggregates per object")
    func groupedBySelf() throws {
        let store = try company()
        var request = FetchRequest(entityName: "Employee", sortDescriptors: [FetchSortDescriptor(keyPath: "firstName")])
        request.propertiesToFetch = [
            objectID, .expression(ExpressionDescription(name: "salaryCount", expression: try ExpressionNode(format: "count:(salary)"))),
        ]
        request.propertiesToGroupBy = [objectID]
        // count:(salary) counts the non-nil salaries: Di has none.
        #expect(
            try store.fetchDictionaries(request) == [
                ["objectID": employee(1, in: store), "salaryCount": .integer(1)],
                ["objectID": employee(2, in: store), "salaryCount": .integer(1)],
                ["objectID": employee(3, in: store), "salaryCount": .integer(1)],
                ["objectID": employee(4, in: store), "salaryCount": .integer(0)],
                ["objectID": employee(5, in: store), "salaryCount": .integer(1)],
            ])
    }

    @Test("SELF fetched while grouping by something else is refused, as an ungrouped key path is")
    func selfNotGroupedIsRefused() throws {
        let store = try company()
        var request = FetchRequest(entityName: "Employee")
        request.propertiesToFetch = [objectID, "lastName"]
        request.propertiesToGroupBy = ["lastName"]
        #expect(throws: PredicateSQLError.self) { try store.fetchDictionaries(request) }
    }

    @Test("an object of a sub-entity gets its own entity's ID, equal to the ID of the object fetched normally")
    func subentityObjectsKeepTheirEntity() throws {
        let context = try ContextTestSupport.memoryContext("Library")
        let created = Date(timeIntervalSinceReferenceDate: 0)
        let book = try ContextTestSupport.insert(context, "Book", ["title": "B", "createdAt": created, "isbn": "0306406152"])
        let album = try ContextTestSupport.insert(context, "Album", ["title": "A", "createdAt": created])
        let media = try ContextTestSupport.insert(context, "Media", ["title": "M", "createdAt": created])
        try context.save()
        var request = FetchRequest(entityName: "Item", sortDescriptors: [FetchSortDescriptor(keyPath: "title")])
        request.propertiesToFetch = ["title", objectID]
        let rows = try context.fetchDictionaries(request)
        let references = rows.map { row -> ObjectReference? in
            guard case .objectID(let reference)? = row["objectID"] else { return nil }
            return reference
        }
        #expect(rows.map { $0["title"] } == [.string("A"), .string("B"), .string("M")])
        #expect(references.map { $0?.entityName } == ["Album", "Book", "Media"])
        let ids = references.map { $0.flatMap(context.objectID(for:)) }
        #expect(ids == [album.objectID, book.objectID, media.objectID])
        #expect(ids.map { $0?.entityName } == ["Album", "Book", "Media"])
    }
}
