import CDQIPredicate
import CDQIStore
import CoreDataQueryInterface
import Foundation
import Testing

/// CoreDataQueryInterface code as CDQI spells it (issue 14), run against the Company fixture (see
/// `FixtureData` for the rows the expected values are worked out from). Salaries: Grace 150000,
/// Ann 120000, Chloé 105000, Bob 95000, Emma 82000, David 70000, Frank 64000, Iris 61000, Hugo 58000,
/// Liam 52000, Karen 47000, Jack 45000.
@Suite struct CDQISpellingTests {
    @Test func proxiesMadeUpFrontAreValuesEverywhere() throws {
        let (_, context) = try CompanyQueries.context()
        let e = CompanyEmployee.CDQIAttribute()
        let d = CompanyDepartment.CDQIAttribute()
        // Engineering is the only department with an employee earning over 100000.
        let rich = try context.from(CompanyDepartment.self).filter(any(d.employees.salary > 100_000)).order(d.name).array(d.name)
        #expect(rich == ["Engineering"])
        // Engineering's first names, ordered by the proxy, typed by the caller.
        let engineers: [String] = try context.from(CompanyEmployee.self)
            .filter(e.department.name == "Engineering").order(e.firstName).array(e.firstName)
        #expect(engineers == ["Ann", "Bob", "Chloé", "Grace"])
        // Highest salary first: Grace.
        let top = try context.from(CompanyEmployee.self).order(ascending: false, e.salary).first()
        #expect(top?.firstName == "Grace")
        // value(proxy) without a type: the attribute's own type, Int32.
        let highest = try context.from(CompanyEmployee.self).order(ascending: false, e.salary).value(e.salary)
        #expect(highest == Int32(150_000))
        let lowest = try context.from(CompanyEmployee.self).value(e.salary.cdqiMin())
        #expect(lowest == Int32(45_000))
    }

    @Test func arrayAndValueTypedByTheCaller() throws {
        let (_, context) = try CompanyQueries.context()
        let e = CompanyEmployee.CDQIAttribute()
        let engineering = context.from(CompanyEmployee.self).filter { $0.department.name == "Engineering" }.order { $0.salary }
        let salaries: [Int] = try engineering.array(e.salary)
        #expect(salaries == [95_000, 105_000, 120_000, 150_000])
        let numbers: [NSNumber] = try engineering.array(e.salary)
        #expect(numbers.map(\.intValue) == [95_000, 105_000, 120_000, 150_000])
        let names: [String] = try engineering.array("firstName")
        #expect(names == ["Bob", "Chloé", "Ann", "Grace"])
        let top: NSNumber? = try context.from(CompanyEmployee.self).value(e.salary.cdqiMax())
        #expect(top?.intValue == 150_000)
        let average: Double? = try engineering.value(e.salary.cdqiAverage())
        // (95000 + 105000 + 120000 + 150000) / 4 = 117500.
        #expect(average == 117_500)
        // Sales nicknames: Dave, nil (Emma), Frankie. Asked for as non-optional strings, the NULL is a
        // mismatch that names the column, never a crash; as the proxy's own type it is nil.
        let sales = context.from(CompanyEmployee.self).filter { $0.department.name == "Sales" }.order { $0.firstName }
        #expect(throws: QueryError.self) { let _: [String] = try sales.array(e.nickName) }
        #expect(try sales.array(e.nickName) == ["Dave", nil, "Frankie"])
        // A string column asked for as numbers is a mismatch too.
        #expect(throws: QueryError.self) { let _: [Int] = try sales.array(e.lastName) }
        // No row: nil.
        let none: NSNumber? = try context.from(CompanyEmployee.self).filter { $0.salary > 1_000_000 }.value(e.salary)
        #expect(none == nil)
    }

    @Test func predicateMethodTwins() throws {
        let (_, context) = try CompanyQueries.context()
        let departments = context.from(CompanyDepartment.self)
        func names(_ query: Query<CompanyDepartment, CompanyDepartment>) throws -> Set<String> {
            Set(try query.all().compactMap(\.name))
        }
        // Over 100000: only in Engineering.
        #expect(try names(departments.filter { ($0.employees.salary > 100_000).cdqiAny() }) == ["Engineering"])
        #expect(try names(departments.filter { ($0.employees.salary > 100_000).cdqiSome() }) == ["Engineering"])
        #expect(try names(departments.filter { ($0.employees.salary > 100_000).cdqiNone() }) == ["Sales", "Marketing", "Support", "Legal"])
        // Everyone over 50000: Engineering (lowest 95000), Sales (64000), Marketing (58000), and Legal,
        // which has no employees (ALL of none is true); Support has Jack at 45000.
        #expect(try names(departments.filter { ($0.employees.salary > 50_000).cdqiAll() }) == ["Engineering", "Sales", "Marketing", "Legal"])
        #expect(try names(departments.filter { ($0.name == "Legal").cdqiNot() }) == ["Engineering", "Sales", "Marketing", "Support"])
        #expect(departments.filter { ($0.employees.salary > 1).cdqiNone() }.request().predicate?.predicateFormat == "NOT ANY employees.salary > 1")
    }

    @Test func severalClosuresInOneCall() throws {
        let (_, context) = try CompanyQueries.context()
        let employees = context.from(CompanyEmployee.self)
        // Lee: Ann, Karen; Smith: Bob, David.
        let named = employees.filter { $0.lastName == ["Lee", "Smith"] }
        #expect(CompanyQueries.firstNames(try named.order({ $0.lastName }, { $0.firstName }).all()) == ["Ann", "Karen", "Bob", "David"])
        #expect(CompanyQueries.firstNames(try named.order(ascending: false, { $0.lastName }, { $0.firstName }).all()) == ["David", "Bob", "Karen", "Ann"])
        // Highest salary per department: Engineering 150000, Marketing 61000, Sales 82000, Support 47000.
        let rows = try employees.filter { $0.department != nil }
            .select({ $0.department.name }, { $0.salary.cdqiMax() })
            .groupBy { $0.department.name }.order { $0.department.name }.all()
        #expect(rows.map { $0["departmentName"] as? String } == ["Engineering", "Marketing", "Sales", "Support"])
        #expect(rows.map { $0["salaryMax"] as? Int } == [150_000, 61_000, 82_000, 47_000])
    }

    @Test func nsNumberOperandsAndSelectedValues() throws {
        let (_, context) = try CompanyQueries.context()
        let employees = context.from(CompanyEmployee.self)
        func names(_ query: Query<CompanyEmployee, CompanyEmployee>) throws -> Set<String> {
            Set(CompanyQueries.firstNames(try query.all()))
        }
        #expect(try names(employees.filter { $0.salary > NSNumber(value: 100_000) }) == ["Ann", "Chloé", "Grace"])
        // A floating-point NSNumber stays a double: 104999.5 < 105000.
        #expect(try names(employees.filter { $0.salary > NSNumber(value: 104_999.5) }) == ["Ann", "Chloé", "Grace"])
        #expect(try names(employees.filter { $0.salary >= NSDecimalNumber(string: "120000") }) == ["Ann", "Grace"])
        #expect(try names(employees.filter { $0.salary == [NSNumber(value: 45_000), NSNumber(value: 47_000)] }) == ["Jack", "Karen"])
        // UInt64.max does not fit a signed integer: an exact decimal, which no salary reaches.
        #expect(try names(employees.filter { $0.salary < NSNumber(value: UInt64.max) }).count == 12)
        #expect(try names(employees.filter { $0.salary > NSNumber(value: UInt64.max) }).isEmpty)
        // Selected as NSNumber: the salaries of Lee (Ann 120000, Karen 47000).
        let lee = employees.filter { $0.lastName == "Lee" }.order { $0.firstName }
        let numbers: [NSNumber] = try lee.array(CompanyEmployee.CDQIAttribute().salary)
        #expect(numbers.map(\.int64Value) == [120_000, 47_000])
        let sum: NSNumber? = try lee.value(CompanyEmployee.CDQIAttribute().salary.cdqiSum())
        #expect(sum?.int64Value == 167_000)
    }

    @Test func theEarlyReadmeForms() throws {
        let (_, context) = try CompanyQueries.context()
        // Names and descriptors mixed in one call: Lee (Karen, then Ann, descending), Smith (David, Bob).
        let mixed = try Query.from(CompanyEmployee.self).context(context)
            .filter { $0.lastName == ["Lee", "Smith"] }
            .order("lastName", FetchSortDescriptor(key: "firstName", ascending: false)).all()
        #expect(CompanyQueries.firstNames(mixed) == ["Karen", "Ann", "David", "Bob"])
        let query = Query.from(CompanyEmployee.self).order("lastName", FetchSortDescriptor(key: "firstName", ascending: false))
        #expect(
            query.request().sortDescriptors == [
                FetchSortDescriptor(keyPath: "lastName", ascending: true), FetchSortDescriptor(keyPath: "firstName", ascending: false),
            ])
        // A query bound to a context with context(_:) runs without one passed.
        #expect(try Query.from(CompanyEmployee.self).context(context).count() == 12)
    }

    /// `SUBQUERY(employees, $v, SOME $v.lastName BEGINSWITH[c] "S").@count > 0`, CDQI's own test: a
    /// modifier on a value that is not a collection is the plain comparison (predicate-language.md
    /// §3.7), in SQL (saved) and in memory (unsaved) alike.
    @Test(arguments: [true, false]) func modifiersOnSingleValues(saved: Bool) throws {
        let (_, context) = try FixtureData.company(saved: saved)
        func names(_ entity: String, _ format: String, _ key: String = "firstName") throws -> Set<String> {
            let request = FetchRequest(entityName: entity, predicate: try PredicateNode(format: format))
            return try FixtureData.strings(try context.fetch(request), key)
        }
        // Last names starting with s, any case: Smith (Engineering, Sales), Smithson (Marketing).
        #expect(
            try names("Department", #"SUBQUERY(employees, $v, SOME $v.lastName BEGINSWITH[c] "s").@count > 0"#, "name")
                == ["Engineering", "Sales", "Marketing"])
        #expect(
            try names("Department", #"SUBQUERY(employees, $v, ALL $v.salary > 60000).@count >= 3"#, "name")
                == ["Engineering", "Sales"])
        #expect(try names("Employee", #"ANY lastName == "Smith""#) == ["Bob", "David"])
        // ALL on a nil value is true; on a nickname it is the plain `nickName == nil`, false.
        #expect(try names("Employee", "ALL nickName == nil") == ["Bob", "Emma", "Hugo", "Jack", "Liam"])
        // NONE is NOT ANY: ANY is true for Annie (Ann) and Amazing Grace (Grace), false for nil.
        #expect(
            try names("Employee", #"NONE nickName BEGINSWITH "A""#)
                == ["Bob", "Chloé", "David", "Emma", "Frank", "Hugo", "Iris", "Jack", "Karen", "Liam"])
        // Through a to-one path: Liam has no department (nil: ALL true, ANY false).
        #expect(try names("Employee", #"ALL department.name == "Sales""#) == ["David", "Emma", "Frank", "Liam"])
        #expect(try names("Employee", #"ANY department.name == "Sales""#) == ["David", "Emma", "Frank"])
        #expect(try names("Employee", "ANY salary IN {45000, 47000}") == ["Jack", "Karen"])
    }
}
