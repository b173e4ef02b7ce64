import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// Contexts on several tasks sharing one coordinator.
@Suite("Context concurrency")
struct ContextConcurrencyTests {
    @Test("tasks saving through one coordinator get distinct keys and lose nothing")
    func parallelSaves() async throws {
        let (coordinator, url, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        let keys = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for task in 0..<4 {
                group.addTask {
                    try await coordinator.performBackgroundTask { context in
                        var keys: [Int64] = []
                        for batch in 0..<5 {
                            var inserted: [ManagedObject] = []
                            for index in 0..<10 {
                                let department = try context.insertNewObject(forEntityName: "Department")
                                try department.setValue("t\(task)-b\(batch)-\(index)", forKey: "name")
                                inserted.append(department)
                            }
                            try context.save()
                            keys += inserted.compactMap(\.objectID.primaryKey)
                        }
                        return keys
                    }
                }
            }
            var all: [Int64] = []
            for try await keys in group { all += keys }
            return all
        }
        #expect(keys.count == 200)
        #expect(Set(keys) == Set(1...200))
        #expect(try ContextTestSupport.rows(file: url, "SELECT COUNT(DISTINCT ZNAME), MAX(Z_PK) FROM ZDEPARTMENT") == [["200", "200"]])
        #expect(try ContextTestSupport.rows(file: url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Department'") == [["200"]])
    }
}
