import CDQIPredicate
import CDQIStore
import CoreDataQueryInterface
import Foundation
import Testing

// Hand-written proxies in the shape cdqi generates.
private final class QDepartmentAttribute: EntityAttribute, Subqueryable {
    private(set) lazy var name = StringAttribute(key: "name", parent: self)
}

private final class QEmployeeAttribute: EntityAttribute, Subqueryable {
    private(set) lazy var lastName = StringAttribute(key: "lastName", parent: self)
    private(set) lazy var firstName = StringAttribute(key: "firstName", parent: self)
    private(set) lazy var salary = Integer32Attribute(key: "salary", parent: self)
    private(set) lazy var rate = DoubleAttribute(key: "rate", parent: self)
    private(set) lazy var department = QDepartmentAttribute(key: "department", parent: self)
}

private final class QEmployee: Entity {
    typealias CDQIAttribute = QEmployeeAttribute
    static let cdqiEntityName = "Employee"
}

/// A class that relies on the default entity name (its class name).
private final class QDepartment: Entity {
    typealias CDQIAttribute = QDepartmentAttribute
}

/// Another, so that the cached names of two classes must stay apart.
private final class QTeam: Entity {
    typealias CDQIAttribute = QDepartmentAttribute
}

@Suite struct QueryRequestTests {
    @Test func theDefaultEntityNameIsTheClassNameWithoutItsModule() {
        for _ in 0..<2 {
            #expect(QDepartment.cdqiEntityName == "QDepartment")
            #expect(QTeam.cdqiEntityName == "QTeam")
        }
        #expect(Query<QTeam, QTeam>().request().entityName == "QTeam")
    }

    @Test func emptyQueryFetchesTheEntity() {
        let request = Query<QEmployee, QEmployee>().request()
        #expect(request.entityName == "Employee")
        #expect(request.predicate == nil)
        #expect(request.sortDescriptors.isEmpty)
        #expect(request.fetchLimit == 0)
        #expect(request.fetchOffset == 0)
    }

    @Test func proxyFilterBuildsTheComparison() {
        let query = Query.from(QEmployee.self).filter { $0.department.name == "Engineering" }
        #expect(query.request().predicate?.predicateFormat == #"department.name == "Engineering""#)
    }

    @Test func typedOperatorsProduceTheirOperators() throws {
        let e = QEmployeeAttribute()
        #expect((e.salary > 5).predicateFormat == "salary > 5")
        #expect((e.salary >= 5).predicateFormat == "salary >= 5")
        #expect((e.salary < 5).predicateFormat == "salary < 5")
        #expect((e.salary <= 5).predicateFormat == "salary <= 5")
        #expect((e.salary != 5).predicateFormat == "salary != 5")
        #expect((e.rate == 1.5) == (try PredicateNode(format: "rate == 1.5")))
        #expect((e.lastName == "Smith" && !(e.salary < 10)) == (try PredicateNode(format: "lastName == 'Smith' AND NOT salary < 10")))
        #expect((e.lastName == "A" || e.lastName == "B") == (try PredicateNode(format: "lastName == 'A' OR lastName == 'B'")))
    }

    @Test func successiveFiltersAndTogetherAndRefilterClears() throws {
        let query = try Query.from(QEmployee.self)
            .filter { $0.salary > 80000 }
            .filter("%K == %@", "lastName", "Smith")
        #expect(query.request().predicate == (try PredicateNode(format: "salary > 80000 AND lastName == 'Smith'")))
        #expect(query.refilter().request().predicate == nil)
    }

    @Test func formatFilterReportsParseErrors() {
        #expect(throws: PredicateParseError.self) { try Query.from(QEmployee.self).filter("salary >") }
    }

    @Test func orderAppendsAndReorderClears() {
        let query = Query.from(QEmployee.self)
            .order("lastName", "firstName")
            .order(ascending: false) { [$0.salary] }
        #expect(
            query.request().sortDescriptors == [
                FetchSortDescriptor(keyPath: "lastName", ascending: true),
                FetchSortDescriptor(keyPath: "firstName", ascending: true),
                FetchSortDescriptor(keyPath: "salary", ascending: false),
            ])
        #expect(query.reorder().request().sortDescriptors.isEmpty)
    }

    @Test func queriesAreValues() {
        let base = Query.from(QEmployee.self).filter { $0.salary > 1 }
        let derived = base.filter { $0.lastName == "X" }.order("lastName").limit(10).offset(20)
        #expect(base.request().predicate?.predicateFormat == "salary > 1")
        #expect(base.request().sortDescriptors.isEmpty)
        #expect(base.request().fetchLimit == 0)
        #expect(derived.request().fetchLimit == 10)
        #expect(derived.request().fetchOffset == 20)
    }

    @Test func nilAndCollectionOperators() throws {
        let e = QEmployeeAttribute()
        #expect((e.lastName == nil) == (try PredicateNode(format: "lastName == nil")))
        #expect((e.lastName != nil) == (try PredicateNode(format: "lastName != nil")))
        #expect((e.salary == [1, 2]) == (try PredicateNode(format: "salary IN %@", [1, 2])))
        #expect((e.lastName != ["a", "b"]) == (try PredicateNode(format: "NOT lastName IN %@", ["a", "b"])))
    }

    @Test func stringFunctionsWithOptions() throws {
        let e = QEmployeeAttribute()
        #expect(
            e.lastName.cdqiBeginsWith("Sm", options: [.caseInsensitive, .diacriticInsensitive]) == (try PredicateNode(format: "lastName BEGINSWITH[cd] 'Sm'")))
        #expect(e.lastName.cdqiEndsWith("th") == (try PredicateNode(format: "lastName ENDSWITH 'th'")))
        #expect(e.lastName.cdqiContains("mit", options: .caseInsensitive) == (try PredicateNode(format: "lastName CONTAINS[c] 'mit'")))
        #expect(e.lastName.cdqiLike("S*h") == (try PredicateNode(format: "lastName LIKE 'S*h'")))
        #expect((e.lastName ~= "S.*") == (try PredicateNode(format: "lastName MATCHES 'S.*'")))
    }
}
