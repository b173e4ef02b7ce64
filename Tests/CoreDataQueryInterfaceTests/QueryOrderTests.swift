import CDQIPredicate
import CDQIStore
import CoreDataQueryInterface
import Foundation
import Testing

/// Ordering on the Company fixture (see `FixtureData`). By last name then first name the employees
/// are: Hopper Grace, Jones Emma, Lee Ann, Lee Karen, Martin Chloé, Müller Frank, Noël Liam,
/// O'Neil Jack, Renard Hugo, Smith Bob, Smith David, Smithson Iris.
@Suite struct QueryOrderTests {
    @Test func keyPathsWithAnOffsetAndALimit() throws {
        let (_, context) = try CompanyQueries.context()
        let page = try context.from(CompanyEmployee.self).order("lastName", "firstName").offset(2).limit(3).all()
        #expect(CompanyQueries.firstNames(page) == ["Ann", "Karen", "Chloé"])
        let last = try context.from(CompanyEmployee.self).order("lastName", "firstName").offset(10).all()
        #expect(CompanyQueries.firstNames(last) == ["David", "Iris"])
        #expect(try context.from(CompanyEmployee.self).order("lastName").offset(12).all().isEmpty)
    }

    @Test func proxyClosuresInEveryShape() throws {
        let (_, context) = try CompanyQueries.context()
        let employees = context.from(CompanyEmployee.self)
        // Highest salaries: Grace 150000, Ann 120000, Chloé 105000.
        let top = try employees.order(ascending: false, { $0.salary }).limit(3).all()
        #expect(CompanyQueries.firstNames(top) == ["Grace", "Ann", "Chloé"])
        let byName = try employees.order { [$0.lastName, $0.firstName] }.limit(4).all()
        #expect(CompanyQueries.firstNames(byName) == ["Grace", "Emma", "Ann", "Karen"])
        let single = try employees.order { $0.lastName }.order(ascending: false) { $0.firstName }.limit(4).all()
        // Lee: Karen before Ann (descending first names).
        #expect(CompanyQueries.firstNames(single) == ["Grace", "Emma", "Karen", "Ann"])
        let descriptors = try employees.order { [$0.lastName.cdqiDescending(), $0.firstName.cdqiAscending()] }.limit(3).all()
        // Descending last names: Smithson Iris, Smith Bob, Smith David.
        #expect(CompanyQueries.firstNames(descriptors) == ["Iris", "Bob", "David"])
        // Ordering by a to-one path: the employee with no department (Liam) first, then Engineering.
        let byDepartment = try employees.order { [$0.department.name, $0.firstName] }.limit(2).all()
        #expect(CompanyQueries.firstNames(byDepartment) == ["Liam", "Ann"])
    }

    @Test func sortDescriptorsAppendAndReorderClears() throws {
        let (_, context) = try CompanyQueries.context()
        let query = context.from(CompanyEmployee.self)
            .order(FetchSortDescriptor(keyPath: "salary", ascending: true))
            .order([FetchSortDescriptor(keyPath: "firstName", ascending: false)])
        #expect(query.request().sortDescriptors.map(\.keyPath) == ["salary", "firstName"])
        // Lowest salaries: Jack 45000, Karen 47000.
        #expect(CompanyQueries.firstNames(try query.limit(2).all()) == ["Jack", "Karen"])
        #expect(query.reorder().request().sortDescriptors.isEmpty)
    }

    /// Adds "de Vries" (lower-case d) and "Mzansi", which sort differently by code point, case-insensitively
    /// and localized: by code point upper case comes before lower case and "Mz" before "Mü" (z < ü).
    private func contextWithAwkwardNames() throws -> ManagedObjectContext {
        let (_, context) = try CompanyQueries.context()
        for (first, last) in [("Daan", "de Vries"), ("Sipho", "Mzansi")] {
            let employee = try context.insert(CompanyEmployee.self)
            try employee.setValue(first, forKey: "firstName")
            try employee.setValue(last, forKey: "lastName")
        }
        _ = try context.save()
        return context
    }

    @Test func caseInsensitiveOrdering() throws {
        let context = try contextWithAwkwardNames()
        let byCodePoint = try context.from(CompanyEmployee.self).order("lastName").all()
        #expect(byCodePoint.last?.firstName == "Daan")
        let caseless = try context.from(CompanyEmployee.self).order(comparison: .caseInsensitiveCompare, "lastName").all()
        #expect(caseless.first?.firstName == "Daan")
        let viaProxy = try context.from(CompanyEmployee.self).order { [$0.lastName.cdqiAscending(.caseInsensitiveCompare)] }.first()
        #expect(viaProxy?.firstName == "Daan")
        let descending = try context.from(CompanyEmployee.self)
            .order(ascending: false, comparison: .caseInsensitiveCompare, { $0.lastName }).all()
        #expect(descending.last?.firstName == "Daan")
    }

    @Test func localizedOrdering() throws {
        let context = try contextWithAwkwardNames()
        let mNames = context.from(CompanyEmployee.self).filter { $0.lastName.cdqiBeginsWith("M") }
        // Martin, Müller, Mzansi: by code point "Mz" (z = U+007A) comes before "Mü" (U+00FC).
        let byCodePoint = try mNames.array { $0.lastName }
        #expect(try mNames.order("lastName").array { $0.lastName } == ["Martin", "Mzansi", "Müller"])
        #expect(byCodePoint.count == 3)
        #expect(try mNames.order(comparison: .localizedCompare, "lastName").array { $0.lastName } == ["Martin", "Müller", "Mzansi"])
        #expect(try mNames.order(comparison: .localizedStandardCompare, "lastName").array { $0.lastName } == ["Martin", "Müller", "Mzansi"])
        let all = try context.from(CompanyEmployee.self).order(comparison: .localizedCaseInsensitiveCompare, "lastName").first()
        #expect(all?.firstName == "Daan")
    }
}
