import CDQIModel
import CDQIPredicate
import CDQIStore
import Foundation
import Testing

/// Dictionary fetches: selected key paths and expressions, grouping, HAVING, DISTINCT; expected values
/// worked out by hand from the rows below.
@Suite("Dictionary fetches")
struct DictionaryFetchTests {
    /// Departments 1 Engineering (budget 100.5), 2 Sales (no budget), 3 Empty (budget 0). Employees:
    /// 1 Ann Lee 100 (Eng), 2 Bob Kay 300 "bobby" (Eng), 3 Cy Lee 200 (Sales), 4 Di Ray nil (Sales),
    /// 5 Ed Fox 50 (no department).
    private func company() throws -> SQLiteStore {
        let store = try SQLiteStore(model: try StoreTestSupport.fixtureModel("Company"), url: nil)
        try store.connection.execute(
            """
            INSERT INTO ZDEPARTMENT (Z_PK, Z_ENT, Z_OPT, ZNAME, ZBUDGET) VALUES
                (1, 1, 1, 'Engineering', 100.5), (2, 1, 1, 'Sales', NULL), (3, 1, 1, 'Empty', 0);
            INSERT INTO ZEMPLOYEE (Z_PK, Z_ENT, Z_OPT, ZFIRSTNAME, ZLASTNAME, ZNICKNAME, ZSALARY, ZDEPARTMENT) VALUES
                (1, 2, 1, 'Ann', 'Lee', NULL, 100, 1), (2, 2, 1, 'Bob', 'Kay', 'bobby', 300, 1),
                (3, 2, 1, 'Cy', 'Lee', NULL, 200, 2), (4, 2, 1, 'Di', 'Ray', NULL, NULL, 2),
                (5, 2, 1, 'Ed', 'Fox', NULL, 50, NULL);
            """)
        return store
    }

    private func aggregate(_ name: String, _ format: String, _ type: AttributeType? = nil) throws -> FetchedProperty {
        .expression(ExpressionDescription(name: name, expression: try ExpressionNode(format: format), resultType: type))
    }

    @Test("aggregates grouped by a to-one path, nil values ignored, a nil key absent")
    func groupedAggregates() throws {
        let store = try company()
        var request = FetchRequest(entityName: "Employee", sortDescriptors: [FetchSortDescriptor(keyPath: "department.name")])
        request.propertiesToFetch = [
            "department.name", try aggregate("salaryCount", "count:(salary)"), try aggregate("salarySum", "sum:(salary)"),
            try aggregate("salaryMax", "max:(salary)"), try aggregate("salaryAverage", "average:(salary)"),
        ]
        request.propertiesToGroupBy = ["department.name"]
        let rows = try store.fetchDictionaries(request)
        #expect(
            rows == [
                ["salaryCount": .integer(1), "salarySum": .integer(50), "salaryMax": .integer(50), "salaryAverage": .double(50)],
                [
                    "department.name": .string("Engineering"), "salaryCount": .integer(2), "salarySum": .integer(400),
                    "salaryMax": .integer(300), "salaryAverage": .double(200),
                ],
                [
                    "department.name": .string("Sales"), "salaryCount": .integer(1), "salarySum": .integer(200),
                    "salaryMax": .integer(200), "salaryAverage": .double(200),
                ],
            ])

        request.havingPredicate = try PredicateNode(format: "count:(salary) >= 2")
        #expect(try store.fetchDictionaries(request).map { $0["department.name"] } == [.string("Engineering")])
        request.havingPredicate = try PredicateNode(format: "$salarySum < 300")
        #expect(try store.fetchDictionaries(request).map { $0["salarySum"] } == [.integer(50), .integer(200)])
    }

    @Test("all attributes by default; to-one relationships as object IDs; Decimal values; DISTINCT")
    func plainColumns() throws {
        let store = try company()
        let first = try store.fetchDictionaries(
            FetchRequest(
                entityName: "Employee", predicate: try PredicateNode(format: "firstName == 'Ann'")))
        #expect(first == [["firstName": .string("Ann"), "lastName": .string("Lee"), "salary": .integer(100)]])

        var request = FetchRequest(entityName: "Employee", predicate: try PredicateNode(format: "lastName == 'Lee'"))
        request.propertiesToFetch = ["firstName", "department", "department.budget"]
        request.sortDescriptors = [FetchSortDescriptor(keyPath: "firstName")]
        let rows = try store.fetchDictionaries(request)
        #expect(rows.count == 2)
        #expect(
            rows[0]["department"]
                == .objectID(
                    ObjectReference(
                        entityName: "Department", storeIdentifier: store.metadata.uuid, identity: .primaryKey(1))))
        #expect(rows[0]["department.budget"] == .decimal(Decimal(string: "100.5") ?? 0))
        #expect(rows[1]["department.budget"] == nil)

        var names = FetchRequest(entityName: "Employee", sortDescriptors: [FetchSortDescriptor(keyPath: "lastName")])
        names.propertiesToFetch = ["lastName"]
        names.returnsDistinctResults = true
        #expect(
            try store.fetchDictionaries(names).compactMap { $0["lastName"] }
                == [.string("Fox"), .string("Kay"), .string("Lee"), .string("Ray")])
    }

    @Test("a fetched key path outside the grouping, and HAVING without grouping, are refused")
    func refusals() throws {
        let store = try company()
        var request = FetchRequest(entityName: "Employee")
        request.propertiesToFetch = ["firstName", try aggregate("n", "count:(salary)")]
        request.propertiesToGroupBy = ["lastName"]
        #expect(throws: PredicateSQLError.self) { try store.fetchDictionaries(request) }
        var having = FetchRequest(entityName: "Employee")
        having.havingPredicate = try PredicateNode(format: "count:(salary) > 1")
        #expect(throws: PredicateSQLError.self) { try store.fetchDictionaries(having) }
    }
}
