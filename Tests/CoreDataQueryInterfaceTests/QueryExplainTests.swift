import CDQIStore
import CoreDataQueryInterface
import Testing

/// `Query.explain()`: the query's fetch explained by the store (the store-level rules are tested in
/// CDQIStoreTests' ExplainTests).
@Suite struct QueryExplainTests {
    @Test func aQueryExplainsItsRequest() throws {
        let (_, context) = try CompanyQueries.context()
        let explanation = try context.from(CompanyEmployee.self).filter { $0.salary > 100_000 }.explain()
        #expect(explanation.sql.contains("t0.ZSALARY > ?"))
        #expect(explanation.bindings == [.integer(100_000)])
        #expect(explanation.warnings.count == 1)
        #expect(explanation.warnings.first?.contains("filter on 'salary'") == true)
        // The same request explained directly gives the same answer.
        let request = context.from(CompanyEmployee.self).filter { $0.salary > 100_000 }.request()
        #expect(try request.explain(in: context) == explanation)
    }

    @Test func withoutAContextItIsNoContext() {
        #expect(throws: QueryError.self) { try Query.from(CompanyEmployee.self).explain() }
    }
}
