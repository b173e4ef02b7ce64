import CDQIPredicate
import CDQIStore
import Testing

/// Checks that the fixture data sets hold what ``FixtureData``'s documentation says, with
/// format-string fetches (independent of the proxy operators the other suites test).
@Suite struct FixtureDataTests {
    @Test func companyHoldsTheDocumentedRows() throws {
        let (_, context) = try FixtureData.company()
        #expect(try context.count(for: FetchRequest(entityName: "Department")) == 5)
        #expect(try context.count(for: FetchRequest(entityName: "Employee")) == 12)
        #expect(try context.count(for: FetchRequest(entityName: "TestEntity")) == 3)
        let engineering = try context.fetch(
            FetchRequest(
                entityName: "Employee", predicate: try PredicateNode(format: "department.name == 'Engineering'")))
        #expect(try FixtureData.strings(engineering) == ["Ann", "Bob", "Chloé", "Grace"])
        let noNick = try context.fetch(FetchRequest(entityName: "Employee", predicate: try PredicateNode(format: "nickName == nil")))
        #expect(try FixtureData.strings(noNick) == ["Bob", "Emma", "Hugo", "Jack", "Liam"])
    }

    @Test func developersHoldTheDocumentedRelationships() throws {
        let (_, context) = try FixtureData.developers()
        #expect(try context.count(for: FetchRequest(entityName: "Developer")) == 6)
        let swift = try context.fetch(
            FetchRequest(
                entityName: "Developer", predicate: try PredicateNode(format: "ANY languages.name == 'Swift'")))
        #expect(try FixtureData.strings(swift) == ["Ada", "Chris"])
        let projects = try context.fetch(FetchRequest(entityName: "Project", predicate: try PredicateNode(format: "members.@count == 0")))
        #expect(try FixtureData.strings(projects, "name") == ["Archive"])
    }
}
