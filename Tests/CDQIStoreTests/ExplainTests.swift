import CDQIModel
import CDQIPredicate
import CDQIStore
import Foundation
import Testing

/// `explain`: the SQL, bindings and SQLite's plan of a fetch, and the plain-words warnings. The Company
/// fixture has one fetch index, `byLastName` on Employee.lastName; salary and firstName have none.
@Suite struct ExplainTests {
    private func explain(_ format: String, _ arguments: Any?..., sortedBy keys: [String] = []) throws -> FetchExplanation {
        let context = try ContextTestSupport.memoryContext("Company")
        let request = FetchRequest(
            entityName: "Employee", predicate: format.isEmpty ? nil : try PredicateNode(format: format, argumentArray: arguments),
            sortDescriptors: keys.map { FetchSortDescriptor(keyPath: $0) })
        return try context.explain(request)
    }

    @Test func aFilterOnAnUnindexedAttributeScansAndNamesTheIndexToAdd() throws {
        let explanation = try explain("salary > %@", 100_000)
        #expect(explanation.sql.contains("FROM ZEMPLOYEE t0"))
        #expect(explanation.sql.contains("t0.ZSALARY > ?"))
        #expect(explanation.bindings == [.integer(100_000)])
        #expect(explanation.queryPlan.contains { $0.hasPrefix("SCAN t0") })
        #expect(explanation.warnings.count == 1)
        #expect(
            explanation.warnings.first?.hasPrefix("the fetch reads every row of ZEMPLOYEE to filter on 'salary': add a fetch index on Employee.salary") == true)
        #expect(
            explanation.warnings.first?.contains(
                "<fetchIndex name=\"bySalary\"><fetchIndexElement property=\"salary\" type=\"Binary\" order=\"ascending\"/></fetchIndex>") == true)
        #expect(explanation.description.contains("\nbindings: 100000\nplan:\n  SCAN t0"))
    }

    @Test func anIndexedFilterSearchesAndNeedsNoWarning() throws {
        let explanation = try explain("lastName == %@", "Lee")
        #expect(explanation.queryPlan.contains { $0.hasPrefix("SEARCH t0 USING INDEX") && $0.contains("ZLASTNAME=?") })
        #expect(explanation.warnings.isEmpty)
    }

    @Test func aSortWithoutAnIndexIsNamedAndAnIndexedOneIsNot() throws {
        let unindexed = try explain("", sortedBy: ["firstName"])
        #expect(unindexed.queryPlan.contains { $0.contains("USE TEMP B-TREE FOR ORDER BY") })
        #expect(
            unindexed.warnings == [
                "the fetch sorts every matching row of ZEMPLOYEE by 'firstName' after reading them: a fetch index on "
                    + "Employee.firstName lets SQLite read them in order (in the model file: <fetchIndex name=\"byFirstName\">"
                    + "<fetchIndexElement property=\"firstName\" type=\"Binary\" order=\"ascending\"/></fetchIndex>)"
            ])
        let indexed = try explain("", sortedBy: ["lastName"])
        #expect(indexed.warnings.isEmpty)
    }

    @Test func functionComparisonsGetNoIndexAdviceButMixedKindsAreNamed() throws {
        // BEGINSWITH[c] goes through a function no index serves: no advice to add one.
        #expect(try explain("firstName BEGINSWITH[c] %@", "a").warnings.isEmpty)
        let mixed = try explain("lastName == %@", 42)
        #expect(
            mixed.warnings == [
                "'lastName == 42' compares 'lastName' (String, a string) with a number: values of different kinds are "
                    + "never equal or ordered, so this comparison is always false (true for !=). Compare with a string, or check the key"
            ])
    }

    @Test func anUnknownKeyIsTheFetchError() throws {
        #expect(throws: PredicateSQLError.unknownKey(key: "salry", entity: "Employee", keyPath: "salry")) {
            try explain("salry > 1")
        }
    }
}
