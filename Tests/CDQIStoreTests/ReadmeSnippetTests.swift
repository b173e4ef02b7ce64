import CDQIModel
import CDQIPredicate
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// The README's "Using the model and the store from Swift" snippet, as written there (with the store
/// file in a temporary folder), and the values it shows.
@Suite("README: the model and the store from Swift")
struct ReadmeSnippetTests {
    @Test("the snippet runs and fetches [Ann] with the SQL it shows")
    func storeSnippet() throws {
        let (folder, cleanUp) = try StoreTestSupport.temporaryFolder()
        defer { cleanUp() }
        let fixtures = StoreTestSupport.packageRoot.appendingPathComponent("Fixtures")

        let loaded = try ModelLoader().load(url: fixtures.appendingPathComponent("Company.xcdatamodeld"))
        let model = loaded.model
        #expect(model.entity(named: "Employee")?.attribute(named: "salary")?.type == .integer32)

        let container = try PersistentContainer(model: model, url: folder.appendingPathComponent("Company.sqlite"))
        let context = container.viewContext
        let engineering = try context.insertNewObject(forEntityName: "Department")
        try engineering.setValue("Engineering", forKey: "name")
        let ann = try context.insertNewObject(forEntityName: "Employee")
        try ann.setValue("Ann", forKey: "firstName")
        try ann.setValue("Lee", forKey: "lastName")
        try ann.setValue(Int32(120_000), forKey: "salary")
        try ann.setValue(engineering, forKey: "department")
        try context.save()

        let request = FetchRequest(
            entityName: "Employee",
            predicate: try PredicateNode(format: "department.name BEGINSWITH[c] %@ AND salary > %@", "eng", 100_000),
            sortDescriptors: [FetchSortDescriptor(keyPath: "lastName")])
        let employees = try context.fetch(request)
        #expect(employees == [ann])
        let sql = try container.coordinator.withStore { try $0.sql(for: request) }
        // The README shows the statement that reads whole rows; the ID statement has the same clauses.
        #expect(
            sql.sql.hasSuffix(
                "FROM ZEMPLOYEE t0 LEFT JOIN ZDEPARTMENT t1 ON t1.Z_PK = t0.ZDEPARTMENT"
                    + " WHERE (cdqi_beginswith(t1.ZNAME, ?, ?) AND t0.ZSALARY > ?) ORDER BY t0.ZLASTNAME COLLATE BINARY ASC, t0.Z_PK"))
        #expect(sql.bindings == [.string("eng"), .integer(1), .integer(100_000)])
    }
}
