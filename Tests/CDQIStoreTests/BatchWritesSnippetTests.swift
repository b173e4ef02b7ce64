import CDQIModel
import CDQIPredicate
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// The "Batch writes" section's example (the Batch Writes article, Sources/CoreDataQueryInterface/CoreDataQueryInterface.docc/BatchWrites.md), as written there (the model from
/// the package's fixtures, the store in a temporary folder), and the values its comments give.
@Suite("README: batch writes")
struct BatchWritesSnippetTests {
    @Test("the example runs and gives the values its comments show")
    func example() throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let fixtures = StoreTestSupport.packageRoot.appendingPathComponent("Fixtures")

        let model = try ModelLoader().load(url: fixtures.appendingPathComponent("Company.xcdatamodeld")).model
        let container = try PersistentContainer(model: model, url: folder.appendingPathComponent("Company.sqlite"))
        let context = container.viewContext

        // Engineering: Ann 120 000, Bob 90 000, Cy 80 000. Sales: Dee 70 000, Eve 60 000.
        var employees: [String: ManagedObject] = [:]
        for (department, people) in [
            ("Engineering", [("Ann", 120_000), ("Bob", 90_000), ("Cy", 80_000)]),
            ("Sales", [("Dee", 70_000), ("Eve", 60_000)]),
        ] {
            let group = try context.insertNewObject(forEntityName: "Department")
            try group.setValue(department, forKey: "name")
            for (name, salary) in people {
                let employee = try context.insertNewObject(forEntityName: "Employee")
                try employee.setValue(name, forKey: "firstName")
                try employee.setValue(name, forKey: "lastName")
                try employee.setValue(Int32(salary), forKey: "salary")
                try employee.setValue(group, forKey: "department")
                employees[name] = employee
            }
        }
        try context.save()

        // A raise of 5 000 for everyone in Engineering earning under 100 000, without loading them.
        var raise = BatchUpdateRequest(
            entityName: "Employee",
            predicate: try PredicateNode(format: "department.name == %@ AND salary < %@", "Engineering", 100_000),
            propertiesToUpdate: ["salary": .expression(try ExpressionNode(format: "salary + 5000"))])
        raise.resultType = .count
        let raised = try context.execute(raise)  // .count(2): Bob and Cy
        let bobsSalary = try employees["Bob"]?.value(forKey: "salary")  // 95 000: Bob was refreshed

        // Close Sales: Department.employees is Cascade, so Dee and Eve go with it.
        var close = BatchDeleteRequest(
            fetchRequest: FetchRequest(
                entityName: "Department", predicate: try PredicateNode(format: "name == %@", "Sales")))
        close.resultType = .objectIDs
        let closed = try context.execute(close)  // .objectIDs([the Sales department's ID])
        let left = try context.count(for: FetchRequest(entityName: "Employee"))  // 3
        // Dee's object is an invalidated fault now: using it throws instead of showing deleted data.
        let deeName = try? employees["Dee"]?.value(forKey: "firstName")  // nil (it threw)

        #expect(raised == .count(2))
        #expect(bobsSalary as? Int32 == 95_000)
        // The only department left is Engineering; the ID returned is the other one's.
        let remaining = try context.fetch(FetchRequest(entityName: "Department"))
        #expect(try remaining.map { try $0.value(forKey: "name") as? String } == ["Engineering"])
        guard case .objectIDs(let ids) = closed else {
            Issue.record("not object IDs")
            return
        }
        #expect(ids.count == 1 && ids.first?.entityName == "Department" && ids.first != remaining.first?.objectID)
        #expect(left == 3)
        #expect(deeName == nil)
        #expect(throws: ManagedObjectError.self) { try employees["Eve"]?.value(forKey: "firstName") }
        #expect(try employees["Cy"]?.value(forKey: "salary") as? Int32 == 85_000)
        #expect(try employees["Ann"]?.value(forKey: "salary") as? Int32 == 120_000)
    }

    @Test("the example in the Batch Writes article is the one this test runs")
    func draftMatches() throws {
        let draft = try String(
            contentsOf: StoreTestSupport.packageRoot.appendingPathComponent("Sources/CoreDataQueryInterface/CoreDataQueryInterface.docc/BatchWrites.md"),
            encoding: .utf8)
        for line in [
            #"propertiesToUpdate: ["salary": .expression(try ExpressionNode(format: "salary + 5000"))])"#,
            #"let raised = try context.execute(raise)                     // .count(2): Bob and Cy"#,
            #"let left = try context.count(for: FetchRequest(entityName: "Employee"))   // 3"#,
        ] {
            #expect(draft.contains(line))
        }
    }
}
