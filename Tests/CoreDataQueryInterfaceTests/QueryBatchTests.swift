import CDQIStore
import CoreDataQueryInterface
import Foundation
import Testing

/// `batchDelete()` and `batchUpdate { … }` on typed queries, over the Company fixture's 12 employees
/// (see `FixtureData.company`). Every count is worked out by hand from that table.
@Suite struct QueryBatchTests {
    private func salaries(_ query: Query<CompanyEmployee, CompanyEmployee>, _ context: ManagedObjectContext) throws -> [Int32] {
        try query.order { $0.salary }.all(managedObjectContext: context).map(\.salary)
    }

    @Test("increase: Engineering under 100000 is Bob alone (95000 → 100000); a registered Bob reads the new salary")
    func increaseThroughARelationshipFilter() throws {
        let (_, context) = try CompanyQueries.context()
        let bob = try #require(try context.from(CompanyEmployee.self).filter { $0.firstName == "Bob" }.first())
        #expect(bob.salary == 95_000)
        let raised = try context.from(CompanyEmployee.self)
            .filter { $0.department.name == "Engineering" && $0.salary < 100_000 }
            .batchUpdate { employee, update in update.increase(employee.salary, by: 5_000) }
        #expect(raised == 1)
        #expect(bob.salary == 100_000)
        // Engineering: Ann 120000, Bob 100000, Chloé 105000, Grace 150000.
        #expect(
            try salaries(context.from(CompanyEmployee.self).filter { $0.department.name == "Engineering" }, context)
                == [100_000, 105_000, 120_000, 150_000])
    }

    @Test("multiply and set: Sales doubled (70000, 82000, 64000 → 432000 in all); Engineering's nicknames cleared")
    func multiplyAndSet() throws {
        let (_, context) = try CompanyQueries.context()
        let sales = context.from(CompanyEmployee.self).filter { $0.department.name == "Sales" }
        #expect(try sales.batchUpdate { employee, update in update.multiply(employee.salary, by: 2) } == 3)
        #expect(try salaries(sales, context) == [128_000, 140_000, 164_000])
        #expect(try sales.value { $0.salary.cdqiSum() } == 432_000)

        // Nil nicknames before: Bob, Emma, Hugo, Jack, Liam (5); after, Ann, Chloé and Grace too (8).
        #expect(try context.from(CompanyEmployee.self).filter { $0.nickName == nil }.count() == 5)
        let cleared = try context.from(CompanyEmployee.self).filter { $0.department.name == "Engineering" }
            .batchUpdate { employee, update in
                update.set(employee.nickName, to: nil)
                update.set(employee.lastName, to: "Eng")
            }
        #expect(cleared == 4)
        #expect(try context.from(CompanyEmployee.self).filter { $0.nickName == nil }.count() == 8)
        #expect(try context.from(CompanyEmployee.self).filter { $0.lastName == "Eng" }.count() == 4)
    }

    @Test("delete: under 50000 are Jack and Karen (2 of 12); the three lowest paid by order and limit are then Liam, Hugo and Iris")
    func deleteByFilterAndWindow() throws {
        let (_, context) = try CompanyQueries.context()
        #expect(try context.from(CompanyEmployee.self).filter { $0.salary < 50_000 }.batchDelete() == 2)
        #expect(try context.from(CompanyEmployee.self).count() == 10)
        // Left, lowest first: Liam 52000, Hugo 58000, Iris 61000, Frank 64000, …
        #expect(try context.from(CompanyEmployee.self).order { $0.salary }.limit(3).batchDelete() == 3)
        #expect(try salaries(context.from(CompanyEmployee.self), context).first == 64_000)
        #expect(try context.from(CompanyEmployee.self).count() == 7)
    }

    @Test("delete rules: deleting Sales cascades to David, Emma and Frank; only the department is counted")
    func deleteCascades() throws {
        let (_, context) = try CompanyQueries.context()
        #expect(try context.from(CompanyDepartment.self).filter { $0.name == "Sales" }.batchDelete() == 1)
        #expect(try context.from(CompanyDepartment.self).count() == 4)
        #expect(try context.from(CompanyEmployee.self).count() == 9)
        #expect(try context.from(CompanyEmployee.self).filter { $0.firstName == "Emma" }.count() == 0)
    }

    @Test("refusals are typed and write nothing: no context, nothing set, a window on an update, a related key path")
    func refusals() throws {
        let (_, context) = try CompanyQueries.context()
        #expect(throws: QueryError.self) { try Query.from(CompanyEmployee.self).batchDelete() }
        do throws(QueryError) {
            try context.from(CompanyEmployee.self).batchUpdate { _, _ in }
            Issue.record("an empty batch update ran")
        } catch {
            guard case .batchFailed(.unsupported(let reason)) = error else { throw error }
            #expect(reason.contains("sets no attribute"))
        }
        do throws(QueryError) {
            try context.from(CompanyEmployee.self).limit(2).batchUpdate { employee, update in update.increase(employee.salary, by: 1) }
            Issue.record("a windowed batch update ran")
        } catch {
            guard case .batchFailed(.unsupported(let reason)) = error else { throw error }
            #expect(reason.contains("limit or offset"))
        }
        do throws(QueryError) {
            try context.from(CompanyEmployee.self).batchUpdate { employee, update in update.set(employee.department.name, to: "X") }
            Issue.record("a batch update through a relationship ran")
        } catch {
            guard case .batchFailed = error else { throw error }
        }
        // 120000 + 95000 + 105000 + 150000 + 70000 + 82000 + 64000 + 58000 + 61000 + 45000 + 47000 + 52000
        #expect(try context.from(CompanyEmployee.self).value { $0.salary.cdqiSum() } == 949_000)
        #expect(try context.from(CompanyDepartment.self).filter { $0.name == "X" }.count() == 0)
    }
}
