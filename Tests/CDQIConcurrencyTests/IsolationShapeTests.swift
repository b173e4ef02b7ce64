import CDQIStore
import CoreDataQueryInterface
import Foundation
import Testing

/// Runs the shapes of `IsolationShapes` and checks their answers against the data set worked out in
/// `ConcurrencyFixture` (salary > 90000: Ann 120000, Bob 95000; 5 employees; max 120000).
@Suite("Concurrency: a Sendable container used from every isolation")
struct IsolationShapeTests {
    @Test("a static let container serves nonisolated async code")
    func staticContainer() async throws {
        let container = try #require(SharedStore.container)
        let names = try await namesEarningOver(90_000, container: container)
        #expect(names == ["Ann", "Bob"])
    }

    @Test("an actor uses performBackgroundTask, its own context's perform, and the direct async forms")
    func actorService() async throws {
        let container = try ConcurrencyFixture.container()
        let service = EmployeeService(container: container)
        let ids = try await service.idsEarningOver(90_000)
        #expect(try ConcurrencyFixture.firstNames(ids, in: container) == ["Ann", "Bob"])
        #expect(try await service.employeeCount() == 5)

        let summary = try await service.summary()
        #expect(summary.ids == ids)
        #expect(summary.count == 2)
        #expect(summary.maxima.map(\.0) == [nil, "Engineering", "Sales"])
        #expect(summary.maxima.map(\.1) == [52_000, 120_000, 70_000])
        #expect(summary.top?["firstName"] as? String == "Ann")
        #expect(summary.top?["salary"] as? Int == 120_000)
        #expect(summary.top?.count == 2)
    }

    @Test("an actor's saves are seen by the next background read")
    func actorSaveThenRead() async throws {
        let container = try ConcurrencyFixture.container()
        let service = EmployeeService(container: container)
        let eve = try #require(try await Query.from(Employee.self).filter { $0.firstName == "Eve" }.ids(in: container).first)
        let changes = try await service.setSalary(130_000, of: eve)
        #expect(changes.updated == [eve])
        #expect(changes.inserted.isEmpty && changes.deleted.isEmpty)
        // Eve 130000 now tops Ann 120000 and Bob 95000.
        let ids = try await service.idsEarningOver(90_000)
        #expect(try ConcurrencyFixture.firstNames(ids, in: container) == ["Eve", "Ann", "Bob"])
    }

    @Test("a main-actor model loads in the background, counts on the view context, reads an aggregate")
    @MainActor func mainActorModel() async throws {
        let container = try ConcurrencyFixture.container()
        let model = EmployeeListModel(container: container)
        try await model.load()
        #expect(model.names == ["Ann", "Bob", "Cleo", "Dan", "Eve"])
        #expect(try await model.countOnViewContext() == 5)
        #expect(try await model.highestSalary() == 120_000)
    }

    @Test("the direct async forms: ids, count, exists, first, array, value, typed rows, dictionaries")
    func directForms() async throws {
        let container = try ConcurrencyFixture.container()
        let employees = Query.from(Employee.self)
        #expect(try await employees.count(in: container) == 5)
        #expect(try await employees.filter { $0.salary > 200_000 }.exists(in: container) == false)
        #expect(try await employees.filter { $0.salary > 100_000 }.exists(in: container) == true)
        let byName = employees.order { $0.firstName }
        #expect(try await byName.array(in: container) { $0.lastName } == ["Lee", "Smith", "Ray", "Wu", "Kim"])
        #expect(
            try await byName.array(in: container, "department.name").map { $0 as? String }
                == ["Engineering", "Engineering", "Sales", "Sales", nil])
        #expect(try await byName.value(in: container, "lastName") as? String == "Lee")
        #expect(try await employees.filter { $0.department.name == "Sales" }.value(in: container) { $0.salary.cdqiSum() } == 134_000)
        let first = try await byName.ids().first(in: container)
        #expect(try ConcurrencyFixture.firstNames([try #require(first)], in: container) == ["Ann"])
        let rows = try await byName.select { ($0.firstName, $0.salary) }.limit(2).all(in: container)
        #expect(rows.map(\.0) == ["Ann", "Bob"])
        #expect(rows.map(\.1) == [120_000, 95_000])
        let dictionaries = try await Query.from(Department.self).order { $0.name }.select("name", "budget").dictionaries(in: container)
        #expect(dictionaries.map { $0["name"] as? String } == ["Engineering", "Legal", "Sales"])
        #expect(dictionaries.map { $0["budget"] as? Decimal } == [500_000, nil, 200_000])
        #expect(dictionaries[1].count == 1)  // NULL budget: no key
    }

    @Test("a query's error crosses the task as a typed QueryError")
    func errorsAreTyped() async throws {
        let container = try ConcurrencyFixture.container()
        await #expect {
            _ = try await Query.from(Employee.self).array(in: container, "noSuchKey")
        } throws: { error in
            guard case QueryError.fetchFailed = error else { return false }
            return "\(error)".contains("noSuchKey")
        }
    }
}
