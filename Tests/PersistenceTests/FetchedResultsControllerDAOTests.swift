import CDQIModel
import CDQIStore
import Foundation
import Persistence
import Testing

/// The seed text's fetched-results controllers, made by a DAO over upstream's two rows "abc" and "te2".
@Suite struct FetchedResultsControllerDAOTests {
    /// Records the controller's row changes.
    final class Recorder: FetchedResultsControllerDelegate {
        var changes: [(FetchedResultsChangeType, IndexPath?, IndexPath?)] = []
        var contentChanges = 0
        func controller(
            _ controller: FetchedResultsController, didChange object: ManagedObject, at indexPath: IndexPath?,
            for type: FetchedResultsChangeType, newIndexPath: IndexPath?
        ) {
            changes.append((type, indexPath, newIndexPath))
        }
        func controllerDidChangeContent(_ controller: FetchedResultsController) { contentChanges += 1 }
    }

    @Test func aControllerFromADAOReportsAnInsertSavedInItsContextAtItsIndexPath() throws {
        let context = try TestStore.filledContext()
        let dao = RuntimeDAO(contextAndEntityName: context, entityName: "TestEntity")
        let criteria = CDSearchCriteria.criteria()
        criteria.addOrder(CDOrder.ascendingOrder("name"))
        let controller = try #require(dao.newFetchedResultsController(criteria, sectionNameKeyPath: nil, cacheName: nil))
        let recorder = Recorder()
        controller.delegate = recorder
        try controller.performFetch()
        #expect(controller.sections?.count == 1)
        #expect(controller.fetchedObjects?.compactMap { try? $0.value(forKey: "name") as? String } == ["abc", "te2"])
        // "b" sorts between "abc" and "te2": inserted at section 0, row 1.
        let inserted = try #require(dao.insertNewObject())
        try inserted.setValue("b", forKey: "name")
        try inserted.setValue(Int32(5), forKey: "intProperty")
        try context.save()
        #expect(recorder.changes.count == 1)
        #expect(recorder.changes.first?.0 == .insert)
        #expect(recorder.changes.first?.1 == nil)
        #expect(recorder.changes.first?.2 == IndexPath(indexes: [0, 1]))
        #expect(controller.fetchedObjects?.compactMap { try? $0.value(forKey: "name") as? String } == ["abc", "b", "te2"])
        #expect(dao.createFetchedResultsController(criteria, sectionNameKeyPath: nil, cacheName: nil) != nil)
    }

    @Test func withoutAnOrderTheControllerRefusesToFetch() throws {
        let dao = RuntimeDAO(contextAndEntityName: try TestStore.filledContext(), entityName: "TestEntity")
        let controller = try #require(dao.newFetchedResultsController(nil, sectionNameKeyPath: nil, cacheName: nil))
        #expect(throws: FetchedResultsControllerError.self) { try controller.performFetch() }
    }
}
