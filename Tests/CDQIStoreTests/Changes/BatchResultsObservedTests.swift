import CDQIModel
import CDQIPredicate
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// A batch request's result reaches the calling context's observers as a merge: a fetched-results
/// controller reports the rows it deleted, and objects-did-change names them.
@Suite struct BatchResultsObservedTests {
    @Test func aControllerReportsTheRowsABatchDeleteRemoved() throws {
        let context = try ContextTestSupport.memoryContext("Company")
        // Ann 120000, Bob 50000, Cy 90000; ordered by last name: Ames (Bob), Cole (Cy), Lee (Ann).
        for (first, last, salary) in [("Ann", "Lee", 120_000), ("Bob", "Ames", 50_000), ("Cy", "Cole", 90_000)] {
            _ = try ContextTestSupport.insert(context, "Employee", ["firstName": first, "lastName": last, "salary": Int32(salary)])
        }
        try context.save()
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest(entityName: "Employee", sortDescriptors: [FetchSortDescriptor(keyPath: "lastName")]),
            managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        let recorder = ControllerRecorder()
        controller.delegate = recorder
        try controller.performFetch()

        final class Collected: @unchecked Sendable {
            private let lock = NSLock()
            private var uris: [String] = []
            func add(_ more: [String]) { lock.withLock { uris += more } }
            var all: [String] { lock.withLock { uris } }
        }
        let invalidated = Collected()
        let token = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didChangeObjectsNotification, object: context, queue: nil
        ) { note in
            let objects = note.userInfo?[ManagedObjectContext.NotificationKey.invalidatedObjects.rawValue] as? Set<ManagedObject> ?? []
            invalidated.add(objects.map(\.objectID.uriString))
        }
        defer { NotificationCenter.default.removeObserver(token) }

        // Cy (row 1) is the one below 100000 and above 60000.
        let cy = try #require(controller.fetchedObjects?[1])
        let cyURI = cy.objectID.uriString
        _ = try context.execute(
            BatchDeleteRequest(
                fetchRequest: FetchRequest(
                    entityName: "Employee", predicate: try PredicateNode(format: "salary > 60000 AND salary < 100000"))))
        #expect(recorder.log == ["W", "O(del,[0,1])", "D"])
        #expect(controller.fetchedObjects?.compactMap { try? $0.value(forKey: "lastName") as? String } == ["Ames", "Lee"])
        #expect(invalidated.all == [cyURI])
    }
}
