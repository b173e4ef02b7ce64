import CDQIPredicate
import CDQIStore
import CoreDataQueryInterface
import Foundation
import Testing

/// Selecting, grouping, HAVING and DISTINCT on the Company fixture (see `FixtureData`).
///
/// Salaries by department, worked out from the fixture's table:
///
/// | department  | employees               | count | sum    | min    | max    | average |
/// | ----------- | ----------------------- | ----- | ------ | ------ | ------ | ------- |
/// | nil         | Liam                    | 1     | 52000  | 52000  | 52000  | 52000   |
/// | Engineering | Ann, Bob, Chloé, Grace  | 4     | 470000 | 95000  | 150000 | 117500  |
/// | Marketing   | Hugo, Iris              | 2     | 119000 | 58000  | 61000  | 59500   |
/// | Sales       | David, Emma, Frank      | 3     | 216000 | 64000  | 82000  | 72000   |
/// | Support     | Jack, Karen             | 2     | 92000  | 45000  | 47000  | 46000   |
///
/// Groups are ordered by department name, NULL first (ascending order puts NULL first, as SQLite does).
@Suite struct QuerySelectTests {
    private func byDepartment(_ context: ManagedObjectContext) -> Query<CompanyEmployee, CompanyEmployee> {
        context.from(CompanyEmployee.self).order { $0.department.name }
    }

    @Test func typedCountsByDepartment() throws {
        let (_, context) = try CompanyQueries.context()
        let rows = try byDepartment(context)
            .select { ($0.department.name, $0.salary.cdqiCount()) }
            .groupBy { $0.department.name }
            .all()
        let names: [String?] = rows.map(\.0)
        let counts: [Int64?] = rows.map(\.1)
        #expect(names == [nil, "Engineering", "Marketing", "Sales", "Support"])
        #expect(counts == [1, 4, 2, 3, 2])
    }

    @Test func typedMinMaxAverageGroupedByAToOnePath() throws {
        let (_, context) = try CompanyQueries.context()
        let rows = try byDepartment(context)
            .select { ($0.department.name, $0.salary.cdqiMin(), $0.salary.cdqiMax(), $0.salary.cdqiAverage(), $0.salary.cdqiSum()) }
            .groupBy { $0.department.name }
            .all()
        let minimums: [Int32?] = rows.map(\.1)
        let maximums: [Int32?] = rows.map(\.2)
        let averages: [Double?] = rows.map(\.3)
        let sums: [Int32?] = rows.map(\.4)
        #expect(rows.map(\.0) == [nil, "Engineering", "Marketing", "Sales", "Support"])
        #expect(minimums == [52_000, 95_000, 58_000, 64_000, 45_000])
        #expect(maximums == [52_000, 150_000, 61_000, 82_000, 47_000])
        #expect(averages == [52_000, 117_500, 59_500, 72_000, 46_000])
        #expect(sums == [52_000, 470_000, 119_000, 216_000, 92_000])
    }

    @Test func theIssueExampleReturnsTuplesTypedFromTheProxies() throws {
        let (_, context) = try CompanyQueries.context()
        let rows: [(String?, Int32?)] = try context.from(CompanyEmployee.self)
            .select { ($0.department.name, $0.salary.cdqiMax()) }
            .groupBy { $0.department.name }
            .order { $0.department.name }
            .all()
        #expect(rows.count == 5)
        #expect(rows.first { $0.0 == "Engineering" }?.1 == 150_000)
        #expect(rows.first { $0.0 == nil }?.1 == 52_000)
    }

    @Test func dictionaryResultsAreNamedAsCDQINamesThem() throws {
        let (_, context) = try CompanyQueries.context()
        let rows = try byDepartment(context)
            .select { [$0.department.name, $0.salary.cdqiMax(), $0.salary.cdqiAverage(), $0.salary.cdqiMin(alias: "lowest")] }
            .groupBy { $0.department.name }
            .all()
        #expect(rows.count == 5)
        // NULL is left out: the group of employees with no department has no departmentName key.
        #expect(Set(rows[0].keys) == ["salaryMax", "salaryAverage", "lowest"])
        #expect(Set(rows[1].keys) == ["departmentName", "salaryMax", "salaryAverage", "lowest"])
        #expect(rows[1]["departmentName"] as? String == "Engineering")
        #expect(rows[1]["salaryMax"] as? Int == 150_000)
        #expect(rows[1]["salaryAverage"] as? Double == 117_500)
        #expect(rows[1]["lowest"] as? Int == 95_000)
    }

    @Test func keyPathsSelectedUnderAnAlias() throws {
        let (_, context) = try CompanyQueries.context()
        let rows = try byDepartment(context)
            .select { [alias($0.department.name, name: "team"), $0.salary.cdqiMax()] }
            .groupBy { $0.department.name }
            .all()
        #expect(Set(rows[1].keys) == ["team", "salaryMax"])
        #expect(rows.map { $0["team"] as? String } == [nil, "Engineering", "Marketing", "Sales", "Support"])
        // Typed: the alias keeps the proxy's value type.
        let typed: [(String?, Int32?)] = try byDepartment(context)
            .select { ($0.department.name.cdqiAlias("team"), $0.salary.cdqiMax().alias("top")) }
            .groupBy { $0.department.name }
            .all()
        #expect(typed.map(\.0) == [nil, "Engineering", "Marketing", "Sales", "Support"])
        #expect(typed.map(\.1) == [52_000, 150_000, 61_000, 82_000, 47_000])
        // The store fetches the key path; the query names its values.
        let request = context.from(CompanyEmployee.self).select { [$0.lastName.cdqiAlias("surname")] }.request()
        #expect(request.propertiesToFetch == [.keyPath("lastName")])
        let surnames = try context.from(CompanyEmployee.self).select { [$0.lastName.cdqiAlias("surname")] }
            .order { $0.lastName }.limit(2).all()
        #expect(surnames.map { $0["surname"] as? String } == ["Hopper", "Jones"])
    }

    @Test func selectWithStringsProxiesAndFreeFunctions() throws {
        let (_, context) = try CompanyQueries.context()
        let lees = context.from(CompanyEmployee.self).filter { $0.lastName == "Lee" }.order("firstName")
        let byString = try lees.select("firstName", "department.name").all()
        #expect(byString.map { $0["firstName"] as? String } == ["Ann", "Karen"])
        #expect(byString.map { $0["departmentName"] as? String } == ["Engineering", "Support"])

        let e = CompanyEmployeeAttribute()
        let byProxy = try lees.select(e.firstName, e.hireDate).all()
        // Ann was hired 2015-03-01, Karen 2023-05-05 (midnight UTC).
        #expect(byProxy.map { $0["hireDate"] as? Date } == [try FixtureData.day("2015-03-01"), try FixtureData.day("2023-05-05")])

        // Successive selects append; the free functions name their results the same way.
        let totals = try context.from(CompanyEmployee.self)
            .select { [sum($0.salary)] }
            .select { [max($0.salary, alias: "top"), count($0.salary)] }
            .all()
        #expect(totals.count == 1)
        // 52000 + 470000 + 119000 + 216000 + 92000 = 949000 over the 12 employees.
        #expect(totals[0]["salarySum"] as? Int == 949_000)
        #expect(totals[0]["top"] as? Int == 150_000)
        #expect(totals[0]["salaryCount"] as? Int == 12)
    }

    @Test func toOneRelationshipsSelectObjectIDs() throws {
        let (_, context) = try CompanyQueries.context()
        let engineering = try #require(try context.from(CompanyDepartment.self).filter { $0.name == "Engineering" }.first())
        let departments: [ManagedObjectID?] = try context.from(CompanyEmployee.self)
            .filter { $0.firstName == "Ann" || $0.firstName == "Liam" }
            .order("firstName")
            .array { $0.department }
        #expect(departments == [engineering.objectID, nil])
        let dictionaries = try context.from(CompanyEmployee.self).filter { $0.firstName == "Ann" }.select("department").all()
        #expect(dictionaries.first?["department"] as? ManagedObjectID == engineering.objectID)
    }

    @Test func decimalsAndEveryAttributeByDefault() throws {
        let (_, context) = try CompanyQueries.context()
        let rows = try context.from(CompanyDepartment.self).order("name").select { ($0.name, $0.budget) }.all()
        let budgets: [Decimal?] = rows.map(\.1)
        #expect(rows.map(\.0) == ["Engineering", "Legal", "Marketing", "Sales", "Support"])
        #expect(budgets == [500_000, Decimal(string: "75000.5"), 150_000, 200_000, nil])

        // reselect(): every attribute, NULLs left out (Bob has no nickName and is the only Bob).
        let bob = try context.from(CompanyEmployee.self).filter { $0.firstName == "Bob" }.select("firstName").reselect().all()
        #expect(bob.count == 1)
        #expect(Set(bob[0].keys) == ["firstName", "lastName", "salary", "hireDate"])
        #expect(bob[0]["salary"] as? Int == 95_000)
    }

    @Test func distinctDropsDuplicateRows() throws {
        let (_, context) = try CompanyQueries.context()
        let lastNames = context.from(CompanyEmployee.self).order("lastName")
        // 12 employees, two Lees and two Smiths: 10 distinct last names, in code-point order.
        #expect(try lastNames.array { $0.lastName }.count == 12)
        let distinct: [String?] = try lastNames.select { $0.lastName }.distinct().all()
        #expect(distinct == ["Hopper", "Jones", "Lee", "Martin", "Müller", "Noël", "O'Neil", "Renard", "Smith", "Smithson"])
        #expect(try lastNames.select("lastName").distinct().count() == 10)
        #expect(try lastNames.select("lastName").distinct().distinct(false).count() == 12)
    }

    @Test func havingFiltersGroups() throws {
        let (_, context) = try CompanyQueries.context()
        let groups = byDepartment(context)
            .select { ($0.department.name, $0.salary.cdqiCount(), $0.salary.cdqiAverage()) }
            .groupBy { $0.department.name }
        // Departments with at least 3 employees: Engineering (4) and Sales (3).
        let large = try groups.having("count:(salary) >= %@", 3).all()
        #expect(large.map(\.0) == ["Engineering", "Sales"])
        // A proxy predicate: the aggregate means the group's maximum. Only Engineering pays over 100000.
        let wellPaid = try groups.having { $0.salary.cdqiMax() > 100_000 }.all()
        #expect(wellPaid.map(\.0) == ["Engineering"])
        // Naming a selected aggregate: averages under 60000 are nil (52000), Marketing, Support.
        let modest = try groups.having("$salaryAverage < 60000").all()
        #expect(modest.map(\.0) == [nil, "Marketing", "Support"])
        // Successive conditions AND together: at least 2 employees and average under 60000.
        let both = try groups.having("$salaryAverage < 60000").having { $0.salary.cdqiCount() >= 2 }.all()
        #expect(both.map(\.0) == ["Marketing", "Support"])
        // regroup() drops the grouping and the HAVING: one row over all 12.
        let all = try groups.regroup().all()
        #expect(all.map(\.1) == [12])
    }

    @Test func havingRewritesCollectionOperatorsIntoGroupFunctions() throws {
        let query = Query.from(CompanyEmployee.self).select { [$0.department.name] }.groupBy { $0.department.name }
            .having { $0.salary.cdqiMax() > 100_000 && $0.salary.cdqiAverage() < 200_000.0 }
        #expect(query.request().havingPredicate == (try PredicateNode(format: "max:(salary) > 100000 AND average:(salary) < 200000.0")))
    }

    @Test func requestCarriesTheSelectionUnderCDQINames() throws {
        let request = Query.from(CompanyEmployee.self)
            .select { ($0.department.name, $0.salary.cdqiMax()) }
            .groupBy { $0.department.name }
            .distinct()
            .request()
        #expect(
            request.propertiesToFetch == [
                .keyPath("department.name"),
                .expression(ExpressionDescription(name: "salaryMax", expression: try ExpressionNode(format: "max:(salary)"))),
            ])
        #expect(request.propertiesToGroupBy == [.keyPath("department.name")])
        #expect(request.returnsDistinctResults)
        // Object queries carry none of it.
        #expect(Query.from(CompanyEmployee.self).distinct().request().returnsDistinctResults == false)
    }

    @Test func twoDifferentColumnsWithOneNameAreATypedError() throws {
        let (_, context) = try CompanyQueries.context()
        let query = context.from(CompanyEmployee.self).select { [$0.salary.cdqiMax(alias: "x"), $0.salary.cdqiMin(alias: "x")] }
        #expect { try query.all() } throws: { error in
            guard case QueryError.duplicateColumnName("x") = error else { return false }
            return true
        }
    }

    @Test func limitAndOffsetApplyToGroups() throws {
        let (_, context) = try CompanyQueries.context()
        let names: [String?] = try byDepartment(context)
            .select { $0.department.name }
            .groupBy { $0.department.name }
            .offset(1).limit(2)
            .all()
        #expect(names == ["Engineering", "Marketing"])
    }

    @Test func userTypesDecodeThroughTheirRawValues() throws {
        let (_, context) = try CompanyQueries.context()
        let rows = context.from(LevelRow.self).order("string")
        // integer32 holds 1, 3 and NULL for t1, t2, t3.
        let levels: [Level?] = try rows.array { $0.integer32 }
        #expect(levels == [.one, .three, nil])
        // integer16 holds 2 for t2, which is no Level: a typed error, not a crash.
        #expect { try rows.array { $0.integer16 } } throws: { error in
            guard case QueryError.valueMismatch(let column, _, let actual) = error else { return false }
            return column == "integer16" && actual == "an integer (2)"
        }
    }
}
