import CDQIPredicate
import CDQIStore
import CoreDataQueryInterface
import Foundation
import Testing

/// Binding queries to contexts and running them, against the Company fixture (see `FixtureData`).
/// Salaries over 100000: Ann 120000, Chloé 105000, Grace 150000.
@Suite struct QueryExecutionTests {
    @Test func contextFromRunsAQueryOfRegisteredObjects() throws {
        let (_, context) = try CompanyQueries.context()
        let engineers = try context.from(CompanyEmployee.self)
            .filter { $0.department.name == "Engineering" }
            .order("firstName")
            .all()
        #expect(CompanyQueries.firstNames(engineers) == ["Ann", "Bob", "Chloé", "Grace"])
    }

    @Test func theThreeWaysToStartAreTheSameQuery() throws {
        let (_, context) = try CompanyQueries.context()
        let a = try context.from(CompanyEmployee.self).filter { $0.salary > 100_000 }.count()
        let b = try Query.from(CompanyEmployee.self).filter { $0.salary > 100_000 }.context(context).count()
        let c = try Query<CompanyEmployee, CompanyEmployee>().filter { $0.salary > 100_000 }
            .count(managedObjectContext: context)
        let counts: [Int] = [a, b, c]
        #expect(counts == [3, 3, 3])
    }

    @Test func aQueryWithNoContextThrowsNoContext() {
        let query = Query.from(CompanyEmployee.self).filter { $0.salary > 100_000 }
        #expect { try query.all() } throws: { error in
            guard case QueryError.noContext(let entity) = error else { return false }
            return entity == "Employee" && "\(error)".contains("no managed object context")
        }
        #expect(throws: QueryError.self) { try query.count() }
        #expect(throws: QueryError.self) { try query.first() }
        #expect(throws: QueryError.self) { try query.value { $0.salary.cdqiMax() } }
    }

    @Test func oneQueryRunsAgainstTwoContextsAndTheLastNamedWins() throws {
        let (_, first) = try CompanyQueries.context()
        let (_, second) = try CompanyQueries.context()
        // In the second store Grace (150000) is deleted: 2 salaries over 100000 remain there.
        let grace = try second.from(CompanyEmployee.self).filter { $0.firstName == "Grace" }.all()
        #expect(grace.count == 1)
        for employee in grace { try second.delete(employee) }
        _ = try second.save()

        let query = Query.from(CompanyEmployee.self).filter { $0.salary > 100_000 }
        #expect(try query.count(managedObjectContext: first) == 3)
        #expect(try query.count(managedObjectContext: second) == 2)
        let bound = query.context(first)
        #expect(try bound.count() == 3)
        #expect(try bound.count(managedObjectContext: second) == 2)
        #expect(try bound.context(second).count() == 2)
        // The objects belong to the context that ran the query.
        #expect(try bound.all(managedObjectContext: second).allSatisfy { $0.managedObjectContext === second })
    }

    @Test func firstOnAnEmptyResultIsNil() throws {
        let (_, context) = try CompanyQueries.context()
        #expect(try context.from(CompanyEmployee.self).filter { $0.salary > 1_000_000 }.first() == nil)
        // Highest salary first: Grace.
        let top = try context.from(CompanyEmployee.self).order(ascending: false) { $0.salary }.first()
        #expect(top?.firstName == "Grace")
    }

    @Test func countAndExistsIncludeUnsavedChangesOfObjects() throws {
        let (_, context) = try CompanyQueries.context()
        let engineers = context.from(CompanyEmployee.self).filter { $0.department.name == "Engineering" }
        #expect(try engineers.count() == 4)
        #expect(try engineers.exists())
        #expect(try !context.from(CompanyEmployee.self).filter { $0.lastName == "Nobody" }.exists())

        let engineering = try #require(try context.from(CompanyDepartment.self).filter { $0.name == "Engineering" }.first())
        let newcomer = try context.insert(CompanyEmployee.self)
        try newcomer.setValue("Zoe", forKey: "firstName")
        try newcomer.setValue("Zed", forKey: "lastName")
        try newcomer.setValue(engineering, forKey: "department")
        #expect(try engineers.count() == 5)
        #expect(try CompanyQueries.firstNames(engineers.order("firstName").all()) == ["Ann", "Bob", "Chloé", "Grace", "Zoe"])
        // Dictionary fetches read saved data only: still 4 rows.
        #expect(try engineers.select("firstName").count() == 4)
    }

    @Test func idsReturnObjectIDsInOrder() throws {
        let (_, context) = try CompanyQueries.context()
        let lees = context.from(CompanyEmployee.self).filter { $0.lastName == "Lee" }.order("firstName")
        let ids = try lees.ids().all()
        let objects = try lees.all()
        #expect(ids.count == 2)
        #expect(ids == objects.map(\.objectID))
        #expect(try lees.ids().objects().all().map(\.objectID) == ids)
        #expect(try Query<CompanyEmployee, ManagedObjectID>().filter { $0.lastName == "Lee" }.count(managedObjectContext: context) == 2)
    }

    @Test func objectsOfAnUnregisteredClassAreATypedError() throws {
        // The fixture's view context made plain ManagedObjects before any class was registered.
        let (_, viewContext) = try FixtureData.company()
        #expect { try viewContext.from(CompanyEmployee.self).all() } throws: { error in
            guard case QueryError.notAnInstance(let entity, let expected, let actual) = error else { return false }
            return entity == "Employee" && expected == "CompanyEmployee" && actual == "ManagedObject"
                && "\(error)".contains("register(CompanyEmployee.self")
        }
    }

    @Test func runningAQueryAndFilteringItsResultsInMemoryIsExplicit() throws {
        let (_, context) = try CompanyQueries.context()
        var names: [String] = []
        for employee in try context.from(CompanyEmployee.self).filter({ $0.salary > 100_000 }).order("firstName").all() {
            names.append(employee.firstName ?? "")
        }
        #expect(names == ["Ann", "Chloé", "Grace"])
        let query = context.from(CompanyEmployee.self).filter { $0.department.name == "Sales" }
        let total: Int32 = try query.all().map(\.salary).reduce(0, +)
        #expect(total == 216_000)  // 70000 + 82000 + 64000
    }

    @Test func toOneNilFilterIsTheQueryFilter() throws {
        let (_, context) = try CompanyQueries.context()
        // Unannotated, as users write it: CompanyEmployee has a `department` property too, so a
        // Bool-returning reading would also type-check; count() exists only on Query.
        let noDepartment = context.from(CompanyEmployee.self).filter { $0.department == nil }
        #expect(try noDepartment.count() == 1)  // Liam (52000, no department)
        let withDepartment = context.from(CompanyEmployee.self).filter { $0.department != nil }
        #expect(try withDepartment.count() == 11)
    }

    @Test func filterOnAnEntityWithSameNamedPropertiesStaysTheQueryFilter() throws {
        let (_, context) = try CompanyQueries.context()
        let base = context.from(CompanyEmployee.self)
        // CompanyEmployee has a `salary: Int32` property, so `Sequence.filter` would also type-check;
        // `count()` exists only on Query, so this compiles only if the query's filter was chosen.
        let filtered = base.filter { $0.salary > 100_000 }
        #expect(try filtered.count() == 3)
    }

    @Test func arrayAndValueAreTypedAndNilForNull() throws {
        let (_, context) = try CompanyQueries.context()
        let sales = context.from(CompanyEmployee.self).filter { $0.department.name == "Sales" }.order("firstName")
        let salaries: [Int32?] = try sales.array { $0.salary }
        #expect(salaries == [70_000, 82_000, 64_000])  // David, Emma, Frank
        let nickNames: [String?] = try sales.array { $0.nickName }
        #expect(nickNames == ["Dave", nil, "Frankie"])
        #expect(try sales.value { $0.salary.cdqiMax() } == 82_000)
        #expect(try sales.value { $0.salary.cdqiAverage() } == 72_000)  // 216000 / 3
        #expect(try sales.array("lastName").map { $0 as? String } == ["Smith", "Jones", "Müller"])
        #expect(try sales.value("salary") as? Int == 70_000)

        // max of no rows is NULL: nil, not a crash.
        let nobody = context.from(CompanyEmployee.self).filter { $0.salary > 1_000_000 }
        #expect(try nobody.value { $0.salary.cdqiMax() } == nil)
        #expect(try nobody.value { $0.salary.cdqiCount() } == 0)
        #expect(try nobody.value("lastName") == nil)
        // Support's budget is NULL.
        let support = context.from(CompanyDepartment.self).filter { $0.name == "Support" }
        #expect(try support.value { $0.budget } == nil)
        #expect(try support.value { $0.budget.cdqiMax() } == nil)
        let legal = context.from(CompanyDepartment.self).filter { $0.name == "Legal" }
        #expect(try legal.value { $0.budget } == Decimal(string: "75000.5"))
    }

    @Test func aColumnOfTheWrongKindIsATypedError() throws {
        let (_, context) = try CompanyQueries.context()
        #expect { try context.from(MislabeledEmployee.self).array { $0.lastName } } throws: { error in
            guard case QueryError.valueMismatch(let column, _, let actual) = error else { return false }
            return column == "lastName" && actual.hasPrefix("a string")
        }
    }

    @Test func storeFailuresAreWrapped() throws {
        let (_, context) = try CompanyQueries.context()
        #expect { try context.from(CompanyEmployee.self).select("noSuchKey").all() } throws: { error in
            guard case QueryError.fetchFailed = error else { return false }
            return true
        }
        #expect { try context.from(CompanyEmployee.self).filter("noSuchKey == 1").all() } throws: { error in
            guard case QueryError.fetchFailed = error else { return false }
            return true
        }
    }
}
