import CDQIPredicate
import CDQIStore
import CoreDataQueryInterface
import Foundation
import Testing

/// The filtering surface run against a real SQLite store holding ``FixtureData``'s data sets: each
/// query's results are compared with the set of names worked out by hand from the tables in
/// ``FixtureData``'s documentation (the reasoning is in the comments).
///
/// Every test runs twice: with the data saved (the predicate runs as SQL) and with the data inserted
/// but unsaved (the context answers with the in-memory evaluator), so both back ends are held to the
/// same hand-worked answers.
@Suite struct FilterStoreTests {
    /// The `key` values of the objects `query` fetches.
    private func names<M: Entity>(_ query: Query<M, M>, _ context: ManagedObjectContext, _ key: String = "firstName") throws -> Set<String> {
        try FixtureData.strings(try context.fetch(query.request()), key)
    }

    private var employees: Query<FixtureEmployee, FixtureEmployee> { Query<FixtureEmployee, FixtureEmployee>() }
    private var departments: Query<FixtureDepartment, FixtureDepartment> { Query<FixtureDepartment, FixtureDepartment>() }
    private var developers: Query<FixtureDeveloper, FixtureDeveloper> { Query<FixtureDeveloper, FixtureDeveloper>() }
    private var projects: Query<FixtureProject, FixtureProject> { Query<FixtureProject, FixtureProject>() }
    private var rows: Query<FixtureTestEntity, FixtureTestEntity> { Query<FixtureTestEntity, FixtureTestEntity>() }

    @Test(arguments: [true, false]) func stringOperatorsWithAndWithoutOptions(saved: Bool) throws {
        let (_, context) = try FixtureData.company(saved: saved)
        // Last names starting "Smith": Smith (Bob, David) and Smithson (Iris).
        #expect(try names(employees.filter { $0.lastName.cdqiBeginsWith("Smith") }, context) == ["Bob", "David", "Iris"])
        // Case-sensitive "smi" matches nothing; [c] finds the same three.
        #expect(try names(employees.filter { beginsWith($0.lastName, "smi") }, context) == [])
        #expect(try names(employees.filter { beginsWith($0.lastName, "smi", options: .caseInsensitive) }, context) == ["Bob", "David", "Iris"])
        // Only Smithson ends with "son"; "LEE" needs [c] to match Lee (Ann, Karen).
        #expect(try names(employees.filter { $0.lastName.cdqiEndsWith("son") }, context) == ["Iris"])
        #expect(try names(employees.filter { endsWith($0.lastName, "LEE") }, context) == [])
        #expect(try names(employees.filter { endsWith($0.lastName, "LEE", options: .caseInsensitive) }, context) == ["Ann", "Karen"])
        // First names with a lower-case "a": Grace, David, Emma, Frank, Jack, Karen, Liam; [c] adds Ann.
        #expect(
            try names(employees.filter { contains($0.firstName, "a") }, context)
                == ["Grace", "David", "Emma", "Frank", "Jack", "Karen", "Liam"])
        #expect(
            try names(employees.filter { $0.firstName.cdqiContains("a", options: .caseInsensitive) }, context)
                == ["Ann", "Grace", "David", "Emma", "Frank", "Jack", "Karen", "Liam"])
        // LIKE "?a*": an "a" in second place (David, Jack, Karen). "*e" ends with a plain "e" (Grace);
        // [d] lets "é" match too (Chloé).
        #expect(try names(employees.filter { like($0.firstName, "?a*") }, context) == ["David", "Jack", "Karen"])
        #expect(try names(employees.filter { $0.firstName.cdqiLike("*e") }, context) == ["Grace"])
        #expect(try names(employees.filter { $0.firstName.cdqiLike("*e", options: .diacriticInsensitive) }, context) == ["Grace", "Chloé"])
        // MATCHES is a whole-string regex: "M.*r" fits Müller only (Martin ends with "n"); with [cd],
        // "mull?er" fits "Müller" folded to "muller".
        #expect(try names(employees.filter { matches($0.lastName, "M.*r") }, context) == ["Frank"])
        #expect(try names(employees.filter { matches($0.lastName, "mull?er") }, context) == [])
        #expect(
            try names(employees.filter { $0.lastName.cdqiMatches("mull?er", options: [.caseInsensitive, .diacriticInsensitive]) }, context)
                == ["Frank"])
        #expect(try names(employees.filter { $0.lastName ~= "[A-Z][a-z]+son" }, context) == ["Iris"])
        // Equality with [cd]: "chloe" equals "Chloé" only when case and diacritics are ignored.
        #expect(try names(employees.filter { $0.firstName == "Chloe" }, context) == [])
        #expect(
            try names(employees.filter { equalTo($0.firstName, "chloe", options: [.caseInsensitive, .diacriticInsensitive]) }, context)
                == ["Chloé"])
    }

    @Test(arguments: [true, false]) func nilAndNotNil(saved: Bool) throws {
        let (_, context) = try FixtureData.company(saved: saved)
        // No nickname: Bob, Emma, Hugo, Jack, Liam; the other seven have one.
        #expect(try names(employees.filter { $0.nickName == nil }, context) == ["Bob", "Emma", "Hugo", "Jack", "Liam"])
        #expect(
            try names(employees.filter { $0.nickName != nil }, context)
                == ["Ann", "Chloé", "Grace", "David", "Frank", "Iris", "Karen"])
        // Liam has no department; Jack no hire date.
        #expect(try names(employees.filter { $0.department == nil }, context) == ["Liam"])
        #expect(try names(employees.filter { $0.hireDate == nil }, context) == ["Jack"])
        // Support is the one department without a budget.
        #expect(try names(departments.filter { $0.budget == nil }, context, "name") == ["Support"])
    }

    @Test(arguments: [true, false]) func membershipAndRanges(saved: Bool) throws {
        let (_, context) = try FixtureData.company(saved: saved)
        // 45000 is Jack, 47000 Karen; nobody earns 99999.
        #expect(try names(employees.filter { $0.salary == [45_000, 47_000, 99_999] }, context) == ["Jack", "Karen"])
        #expect(
            try names(employees.filter { $0.salary != [45_000, 47_000, 99_999] }, context)
                == ["Ann", "Bob", "Chloé", "Grace", "David", "Emma", "Frank", "Hugo", "Iris", "Liam"])
        #expect(try names(employees.filter { among($0.lastName, ["Lee", "Smith"]) }, context) == ["Ann", "Karen", "Bob", "David"])
        // BETWEEN includes its bounds: 61000 (Iris), 64000 (Frank), 70000 (David), 82000 (Emma).
        #expect(try names(employees.filter { $0.salary.cdqiBetween(61_000, and: 82_000) }, context) == ["Iris", "Frank", "David", "Emma"])
        // Hired in 2015–2019: Ann (2015-03), Iris (2016-07), Bob (2018-06), Emma (2019-04).
        let from = try FixtureData.day("2015-01-01"), to = try FixtureData.day("2019-12-31")
        #expect(try names(employees.filter { between($0.hireDate, from, to) }, context) == ["Ann", "Iris", "Bob", "Emma"])
        // Sales staff above 65000: David (70000) and Emma (82000), not Frank (64000).
        #expect(try names(employees.filter { $0.department.name == "Sales" && $0.salary > 65_000 }, context) == ["David", "Emma"])
        #expect(try names(employees.filter { not($0.salary > 50_000) }, context) == ["Jack", "Karen"])
    }

    @Test(arguments: [true, false]) func aggregatesOverToManyPaths(saved: Bool) throws {
        let (_, context) = try FixtureData.company(saved: saved)
        // Head counts: Engineering 4, Sales 3, Marketing 2, Support 2, Legal 0.
        #expect(try names(departments.filter { $0.employees.cdqiCount() > 3 }, context, "name") == ["Engineering"])
        #expect(try names(departments.filter { count($0.employees) == 0 }, context, "name") == ["Legal"])
        // Top salaries: Engineering 150000, Sales 82000, Marketing 61000, Support 47000.
        #expect(try names(departments.filter { $0.employees.salary.cdqiMax() >= 100_000 }, context, "name") == ["Engineering"])
        // Lowest: Support's Jack at 45000 is the only one under 50000.
        #expect(try names(departments.filter { min($0.employees.salary) < 50_000 }, context, "name") == ["Support"])
        // Averages: Engineering 117500, Sales 72000, Marketing 59500, Support 46000 (Legal: none).
        #expect(try names(departments.filter { $0.employees.salary.cdqiAverage() > 70_000.0 }, context, "name") == ["Engineering", "Sales"])
        // Sums: Engineering 470000, Sales 216000, Marketing 119000, Support 92000.
        #expect(try names(departments.filter { sum($0.employees.salary) > 200_000 }, context, "name") == ["Engineering", "Sales"])
    }

    @Test(arguments: [true, false]) func quantifiersOverToManyPaths(saved: Bool) throws {
        let (_, context) = try FixtureData.company(saved: saved)
        // A Lee works in Engineering (Ann) and in Support (Karen).
        #expect(try names(departments.filter { any($0.employees.lastName == "Lee") }, context, "name") == ["Engineering", "Support"])
        // Over 100000 only in Engineering, so NONE holds for the other four (Legal included).
        #expect(
            try names(departments.filter { none($0.employees.salary > 100_000) }, context, "name")
                == ["Sales", "Marketing", "Support", "Legal"])
        // Everyone above 60000: Engineering and Sales; Legal vacuously; Marketing has Hugo at 58000.
        #expect(try names(departments.filter { all($0.employees.salary > 60_000) }, context, "name") == ["Engineering", "Sales", "Legal"])

        let (_, devs) = try FixtureData.developers(saved: saved)
        #expect(try names(developers.filter { any($0.languages.name == "Swift") }, devs) == ["Ada", "Chris"])
        #expect(try names(developers.filter { some($0.languages.name.cdqiBeginsWith("s", options: .caseInsensitive)) }, devs) == ["Ada", "Chris"])
        // Nobody speaking C: Guido, Andrey, and Margaret (no languages at all).
        #expect(try names(developers.filter { none($0.languages.name == "C") }, devs) == ["Guido", "Andrey", "Margaret"])
        // Only C: Linus; Margaret vacuously.
        #expect(try names(developers.filter { all($0.languages.name == "C") }, devs) == ["Linus", "Margaret"])
        #expect(try names(developers.filter { $0.languages.cdqiCount() >= 2 }, devs) == ["Ada", "Chris"])
        #expect(try names(developers.filter { $0.ledProjects.cdqiCount() == 0 }, devs) == ["Ada", "Guido", "Andrey"])
        #expect(try names(projects.filter { $0.lead == nil }, devs, "name") == ["Website"])
        #expect(try names(projects.filter { $0.members.cdqiCount() == 0 }, devs, "name") == ["Archive"])
    }

    @Test(arguments: [true, false]) func subqueryCounts(saved: Bool) throws {
        let (_, context) = try FixtureData.company(saved: saved)
        // Over 100000: Ann, Chloé and Grace, all in Engineering.
        #expect(
            try names(departments.filter { subquery($0.employees) { $0.salary > 100_000 }.cdqiCount() >= 2 }, context, "name")
                == ["Engineering"])
        // No nickname and over 60000 in one person: Bob (Engineering) and Emma (Sales); Hugo and
        // Jack have no nickname but earn less.
        #expect(
            try names(
                departments.filter { $0.employees.cdqiSubquery { $0.nickName == nil && $0.salary > 60_000 }.cdqiCount() > 0 },
                context, "name") == ["Engineering", "Sales"])
        #expect(try names(departments.filter { subqueryCount($0.employees) { $0.nickName == nil } == 0 }, context, "name") == ["Legal"])

        let (_, devs) = try FixtureData.developers(saved: saved)
        // Members speaking C: Compiler (Chris, Ada), Kernel (Linus, Ada), Website none.
        #expect(
            try names(projects.filter { subquery($0.members) { any($0.languages.name == "C") }.cdqiCount() >= 2 }, devs, "name")
                == ["Compiler", "Kernel"])
        // Members of a project without a lead: Website's Guido, Andrey and Margaret.
        #expect(
            try names(developers.filter { $0.projects.cdqiSubquery { $0.lead == nil }.cdqiCount() > 0 }, devs)
                == ["Guido", "Andrey", "Margaret"])
        // Nested: projects with a member who speaks a language named like that member's nickname —
        // nobody; and with a member who speaks Rust (Ada: Compiler and Kernel).
        #expect(
            try names(
                projects.filter { p in
                    subquery(p.members) { m in subquery(m.languages) { $0.name == "Rust" }.cdqiCount() > 0 }.cdqiCount() > 0
                }, devs, "name") == ["Compiler", "Kernel"])
    }

    @Test(arguments: [true, false]) func objectsAndObjectIDsAsOperands(saved: Bool) throws {
        let (_, context) = try FixtureData.company(saved: saved)
        let all = try context.fetch(departments.request())
        let byName = Dictionary(uniqueKeysWithValues: try all.map { (try $0.value(forKey: "name") as? String ?? "", $0) })
        let engineering = try #require(byName["Engineering"]), sales = try #require(byName["Sales"])
        #expect(try names(employees.filter { $0.department == engineering }, context) == ["Ann", "Bob", "Chloé", "Grace"])
        #expect(try names(employees.filter { $0.department == sales.objectID }, context) == ["David", "Emma", "Frank"])
        // NOT IN over a to-one: Liam, without a department, is not IN the list, so NOT IN holds.
        #expect(try names(employees.filter { $0.department != [engineering, sales] }, context) == ["Hugo", "Iris", "Jack", "Karen", "Liam"])
        #expect(try names(departments.filter { $0 == [engineering.objectID, sales.objectID] }, context, "name") == ["Engineering", "Sales"])
        #expect(try names(departments.filter { $0 != engineering }, context, "name") == ["Sales", "Marketing", "Support", "Legal"])
    }

    @Test(arguments: [true, false]) func typedValuesOfEveryKind(saved: Bool) throws {
        let (_, context) = try FixtureData.company(saved: saved)
        // Plain Int variables against Integer 16/32/64 attributes.
        let limit = 100_000
        #expect(try names(employees.filter { $0.salary > limit }, context) == ["Ann", "Chloé", "Grace"])
        let big = 5_000_000_000
        #expect(try names(rows.filter { $0.integer64 > big }, context, "string") == ["t1"])
        #expect(try names(rows.filter { $0.integer16 == UInt8(2) }, context, "string") == ["t2"])
        // Weekday.tuesday is 3: t2's integer32.
        #expect(try names(rows.filter { $0.integer32 == Weekday.tuesday }, context, "string") == ["t2"])
        #expect(try names(rows.filter { $0.boolean == true }, context, "string") == ["t1"])
        #expect(try names(rows.filter { $0.decimal > Decimal(2) }, context, "string") == ["t2"])
        #expect(try names(rows.filter { $0.float >= 0.5 && $0.double < 0 }, context, "string") == ["t2"])
        // Key path against key path: t1 has 1 and 1, t2 has 2 and 3, t3 NULL and NULL. NULL is not
        // less than anything, but NSPredicate's `==` holds between two nils, so t3 is equal too.
        #expect(try names(rows.filter { $0.integer16 < $0.integer32 }, context, "string") == ["t2"])
        #expect(try names(rows.filter { $0.integer16 == $0.integer32 }, context, "string") == ["t1", "t3"])
        #expect(try names(departments.filter { $0.budget > 100_000 }, context, "name") == ["Engineering", "Sales", "Marketing"])
        // The issue's `filter(e.salary >= 80000.32)`: a Double against the Integer 32 salary. At or
        // above it: Ann, Bob, Chloé, Grace (Engineering) and Emma (82000).
        let e = FixtureEmployeeAttribute()
        #expect(try names(employees.filter(e.salary >= 80000.32), context) == ["Ann", "Bob", "Chloé", "Grace", "Emma"])
        // UInt64.max is beyond Int64: it becomes an exact decimal, above t1's and t2's values.
        #expect(try names(rows.filter { $0.integer64 < UInt64.max }, context, "string") == ["t1", "t2"])
        // Dates, data, UUIDs and URLs (t1 and t2 have them; t3 is all nil).
        let newYear2021 = try FixtureData.day("2021-01-01")
        #expect(try names(rows.filter { $0.date < newYear2021 }, context, "string") == ["t1"])
        #expect(try names(rows.filter { $0.binary == Data([9]) }, context, "string") == ["t2"])
        let one = try FixtureData.uuidValue("00000000-0000-0000-0000-000000000001")
        let two = try FixtureData.uuidValue("00000000-0000-0000-0000-000000000002")
        #expect(try names(rows.filter { $0.uuid == two }, context, "string") == ["t2"])
        #expect(try names(rows.filter { $0.uuid == [one, two] }, context, "string") == ["t1", "t2"])
        let firstURL = try FixtureData.urlValue("https://example.com/t1")
        #expect(try names(rows.filter { $0.uri == firstURL }, context, "string") == ["t1"])
        #expect(try names(rows.filter { $0.uri == nil }, context, "string") == ["t3"])
        // An aggregate reached through a to-one: employees whose department has at least 4 people.
        #expect(try names(employees.filter { $0.department.employees.cdqiCount() >= 4 }, context) == ["Ann", "Bob", "Chloé", "Grace"])
    }
}
