import CDQIModel
import CDQIPredicate
import CDQIStore
import Testing

/// A store reuses the compilation of the shape it ran last without rewriting and hashing the predicate.
/// Against a second evaluator: each request's SQL and bindings must be what a store that never saw
/// the previous request compiles, over a sequence of requests that differ from their predecessor in
/// one detail each (a constant, a constant's class, an operator, options, a key path, a modifier, a
/// collection's size, the order, the window, the predicate's presence).
@Suite("Compiled fetches: reusing the last shape")
struct CompiledFetchReuseTests {
    private static func request(
        _ format: String?, _ arguments: [Any?] = [], entity: String = "Employee", sortedBy keys: [String] = [],
        limit: Int = 0
    ) throws -> FetchRequest {
        var request = FetchRequest(
            entityName: entity, predicate: try format.map { try PredicateNode(format: $0, argumentArray: arguments) },
            sortDescriptors: keys.map { FetchSortDescriptor(keyPath: $0) })
        request.fetchLimit = limit
        return request
    }

    @Test("every request compiles as it would on a fresh store")
    func sameAsFreshCompilation() throws {
        let model = try StoreTestSupport.fixtureModel("Company")
        let requests: [FetchRequest] = [
            try Self.request("lastName >= %@ AND lastName < %@", ["a", "b"]),
            try Self.request("lastName >= %@ AND lastName < %@", ["c", "d"]),  // constants only: reused
            try Self.request("lastName >= %@ AND lastName < %@", [1, 2]),  // constant classes
            try Self.request("lastName >= %@ AND lastName < %@", [nil, "x"]),  // nil
            try Self.request("lastName >= %@ OR lastName < %@", ["a", "b"]),  // and/or
            try Self.request("lastName >= %@ OR lastName <= %@", ["a", "b"]),  // operator
            try Self.request("lastName BEGINSWITH %@", ["a"]),
            try Self.request("lastName BEGINSWITH[cd] %@", ["a"]),  // options
            try Self.request("firstName BEGINSWITH[cd] %@", ["a"]),  // key path
            try Self.request("department.name BEGINSWITH[cd] %@", ["a"]),
            try Self.request("lastName IN %@", [["a", "b"]]),
            try Self.request("lastName IN %@", [["a", "b", "c"]]),  // collection size
            try Self.request("ANY employees.salary > %@", [10], entity: "Department"),
            try Self.request("ALL employees.salary > %@", [10], entity: "Department"),  // modifier
            try Self.request("SUBQUERY(employees, $e, $e.salary > %@).@count > %@", [10, 1], entity: "Department"),
            try Self.request("SUBQUERY(employees, $x, $x.salary > %@).@count > %@", [10, 1], entity: "Department"),
            try Self.request("salary > %@", [5]),
            try Self.request("salary > %@", [5], sortedBy: ["lastName"]),  // order
            try Self.request("salary > %@", [5], sortedBy: ["lastName"], limit: 3),  // window
            try Self.request(nil),  // no predicate
            try Self.request("salary > %@ + %@", [5, 6]),
            try Self.request("salary > %@ * %@", [5, 6]),  // function
            try Self.request("hireDate < now()"),
            try Self.request("hireDate < now()"),  // not reusable
        ]
        let store = try SQLiteStore(model: model, url: nil)
        for (index, request) in requests.enumerated() {
            let fresh = try SQLiteStore(model: model, url: nil)
            let expected = try fresh.sql(for: request)
            let actual = try store.sql(for: request)
            #expect(actual.sql == expected.sql, "request \(index)")
            // `now()` is bound as the time it was compiled at: a moment later for the fresh store.
            if request.predicate?.predicateFormat.contains("now()") == true { continue }
            #expect(actual.bindings == expected.bindings, "request \(index)")
        }
        // The second request reused the first one's compilation; so did nothing that differed in shape.
        #expect(store.compiledFetchCount == 21)
    }
}
