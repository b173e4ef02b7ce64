import CDQIModel
import CDQIPredicate
import CDQIStore
import Foundation
import Testing

/// Orderings against a constant compile to a form SQLite can serve from an index, with the same
/// two-valued results (a nil attribute never satisfies `<`, `<=`, `>`, `>=` against a non-nil value).
@Suite("Indexed comparisons")
struct IndexedComparisonTests {
    /// A Company store (Department 1, Employee 2, TestEntity 3) with five employees; `nickName` is
    /// optional and nil for two of them. `lastName` has a fetch index (`byLastName`).
    private func company() throws -> SQLiteStore {
        let store = try SQLiteStore(model: try StoreTestSupport.fixtureModel("Company"), url: nil)
        try store.connection.execute(
            """
            INSERT INTO ZDEPARTMENT (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 1, 1, 'One'), (2, 1, 1, 'Two');
            INSERT INTO ZEMPLOYEE (Z_PK, Z_ENT, Z_OPT, ZFIRSTNAME, ZLASTNAME, ZNICKNAME, ZSALARY, ZDEPARTMENT) VALUES
                (1, 2, 1, 'Ann', 'Adams', 'a', 10, 1),
                (2, 2, 1, 'Bob', 'Baker', NULL, 20, NULL),
                (3, 2, 1, 'Cy', 'Clark', 'm', 30, 1),
                (4, 2, 1, 'Di', 'Dunn', 'z', 40, 2),
                (5, 2, 1, 'Ed', 'Evans', NULL, 50, 2);
            """)
        return store
    }

    private func count(_ store: SQLiteStore, _ format: String, _ arguments: Any?...) throws -> Int {
        let predicate = try PredicateNode(format: format, argumentArray: arguments)
        return try store.count(FetchRequest(entityName: "Employee", predicate: predicate))
    }

    @Test("nil never satisfies an ordering, and NOT of it holds for nil: results worked out by hand")
    func nilSemantics() throws {
        let store = try company()
        // Nicknames: a, nil, m, z, nil.
        #expect(try count(store, "nickName >= %@", "m") == 2)  // m, z
        #expect(try count(store, "nickName > %@", "m") == 1)  // z
        #expect(try count(store, "nickName < %@", "m") == 1)  // a
        #expect(try count(store, "nickName <= %@", "m") == 2)  // a, m
        #expect(try count(store, "NOT (nickName < %@)", "m") == 4)  // nil, m, z, nil
        #expect(try count(store, "%@ > nickName", "m") == 1)  // constant on the left: a
        #expect(try count(store, "nickName >= %@ AND nickName < %@", "b", "y") == 1)  // m
        #expect(try count(store, "nickName >= nil") == 2)  // only the nils equal nil
    }

    @Test("ALL and NONE over a to-many path treat a nil member as failing the ordering")
    func quantifiers() throws {
        let store = try company()
        func departments(_ format: String, _ arguments: Any?...) throws -> Int {
            try store.count(
                FetchRequest(
                    entityName: "Department", predicate: try PredicateNode(format: format, argumentArray: arguments)))
        }
        // Department One: nicknames a, m. Department Two: z, nil.
        #expect(try departments("ALL employees.nickName >= %@", "a") == 1)  // One; Two fails on nil
        #expect(try departments("NONE employees.nickName < %@", "b") == 1)  // Two (z and nil are not < b)
        #expect(try departments("ANY employees.nickName < %@", "b") == 1)  // One (a)
        #expect(try departments("NOT (ANY employees.nickName >= %@)", "n") == 1)  // One (a, m are not >= n)
    }

    @Test("a range on an indexed attribute is planned with its index")
    func usesIndex() throws {
        let store = try company()
        let request = FetchRequest(
            entityName: "Employee",
            predicate: try PredicateNode(format: "lastName >= %@ AND lastName < %@", "B", "D"))
        let (sql, bindings) = try store.sql(for: request)
        let plan = try store.connection.prepare("EXPLAIN QUERY PLAN " + sql)
        try plan.bind(bindings)
        var details: [String] = []
        while try plan.step() { details.append(plan.string(3)) }
        plan.reset()
        #expect(details.contains { $0.contains("USING INDEX") || $0.contains("USING COVERING INDEX") }, "\(details)")
        #expect(try count(store, "lastName >= %@ AND lastName < %@", "B", "D") == 2)  // Baker, Clark
    }
}
