import CDQIModel
import CDQIPredicate
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// Fetching objects through a context: SQL for the stored rows, merged with the context's unsaved
/// changes as Core Data merges them. Expected results worked out by hand from the data below.
@Suite("Context fetches")
struct ContextFetchTests {
    /// Saved: Ann Lee 100, Bob Kay 300, Cy Lee 200, Di Ray 0, Ed Fox 50 (no department); departments Eng (Ann,
    /// Bob) and Sales (Cy, Di).
    private func company() throws -> (ManagedObjectContext, [String: ManagedObject]) {
        let context = try ContextTestSupport.memoryContext("Company")
        let engineering = try ContextTestSupport.insert(context, "Department", ["name": "Eng"])
        let sales = try ContextTestSupport.insert(context, "Department", ["name": "Sales"])
        var people: [String: ManagedObject] = [:]
        for (first, last, salary, department) in [
            ("Ann", "Lee", 100, engineering), ("Bob", "Kay", 300, engineering), ("Cy", "Lee", 200, sales),
            ("Di", "Ray", 0, sales), ("Ed", "Fox", 50, nil),
        ] as [(String, String, Int?, ManagedObject?)] {
            people[first] = try ContextTestSupport.insert(
                context, "Employee", ["firstName": first, "lastName": last, "salary": salary, "department": department])
        }
        try context.save()
        return (context, people)
    }

    private func firstNames(_ objects: [ManagedObject]) throws -> [String] {
        try objects.map { try $0.value(forKey: "firstName") as? String ?? "?" }
    }

    private func request(_ format: String? = nil, _ arguments: Any?..., sort: [FetchSortDescriptor] = []) throws -> FetchRequest {
        FetchRequest(
            entityName: "Employee", predicate: try format.map { try PredicateNode(format: $0, argumentArray: arguments) },
            sortDescriptors: sort)
    }

    @Test("stored objects come back uniqued, in order, through to-one paths")
    func storedObjects() throws {
        let (context, people) = try company()
        let byName = [FetchSortDescriptor(keyPath: "lastName"), FetchSortDescriptor(keyPath: "firstName")]
        let rich = try context.fetch(try request("salary >= 100", sort: byName))
        #expect(try firstNames(rich) == ["Bob", "Ann", "Cy"])
        #expect(rich[0] === people["Bob"])  // one object per ID per context
        #expect(try firstNames(try context.fetch(try request("department.name == 'Sales'", sort: byName))) == ["Cy", "Di"])
        #expect(try context.count(for: try request("department == nil")) == 1)
        var window = try request(sort: [FetchSortDescriptor(keyPath: "salary", ascending: false)])
        window.fetchLimit = 2
        window.fetchOffset = 1
        #expect(try firstNames(try context.fetch(window)) == ["Cy", "Ann"])  // 300 Bob, 200 Cy, 100 Ann, 50 Ed, 0 Di
        #expect(try context.count(for: window) == 2)
    }

    @Test("unsaved inserts, changes and deletions take part, before the window applies")
    func pendingChanges() throws {
        let (context, people) = try company()
        try ContextTestSupport.insert(context, "Employee", ["firstName": "Flo", "lastName": "Ames", "salary": 150])
        try people["Bob"]?.setValue(90, forKey: "salary")  // no longer >= 100
        try people["Ed"]?.setValue(120, forKey: "salary")  // now >= 100
        if let cy = people["Cy"] { try context.delete(cy) }
        let sorted = try request("salary >= 100", sort: [FetchSortDescriptor(keyPath: "salary")])
        // Ann 100, Ed 120, Flo 150 (Bob now 90, Cy deleted).
        #expect(try firstNames(try context.fetch(sorted)) == ["Ann", "Ed", "Flo"])
        #expect(try context.count(for: sorted) == 3)
        var window = sorted
        window.fetchOffset = 1
        window.fetchLimit = 1
        #expect(try firstNames(try context.fetch(window)) == ["Ed"])
        #expect(try context.count(for: window) == 1)
        // Without an order: stored objects by primary key, then the new one.
        #expect(try firstNames(try context.fetch(try request("lastName != 'Lee'"))) == ["Bob", "Di", "Ed", "Flo"])
        // Case-insensitive ordering in memory matches SQL's.
        try people["Ann"]?.setValue("lee", forKey: "lastName")
        let byLastName = try request(sort: [
            FetchSortDescriptor(keyPath: "lastName", comparison: .caseInsensitiveCompare), FetchSortDescriptor(keyPath: "firstName"),
        ])
        #expect(try firstNames(try context.fetch(byLastName)) == ["Flo", "Ed", "Bob", "Ann", "Di"])
        // Extreme windows clamp, with unsaved changes and without.
        var extreme = try request()
        extreme.fetchOffset = -3
        extreme.fetchLimit = Int.max
        #expect(try context.fetch(extreme).count == 5)  // Ann, Bob, Di, Ed and the new Flo; Cy is deleted
        context.rollback()
        #expect(try context.count(for: try request()) == 5)
        #expect(try context.fetch(extreme).count == 5)
        extreme.fetchOffset = Int.max
        #expect(try context.fetch(extreme).isEmpty)
    }
}
