import CDQIPredicate
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// The examples of the "Watching changes" README draft, run as written (printing replaced by
/// collecting), with the values worked out by hand.
@Suite("Changes: README 'Watching changes' examples")
struct WatchingChangesReadmeTests {
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    @Test("the notification example prints 'inserted 1'")
    func notificationExample() throws {
        let context = ManagedObjectContext(coordinator: try ChangeTestSupport.coordinator())
        let printed = Lines()
        let token = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didChangeObjectsNotification, object: context, queue: nil
        ) { note in
            let inserted = note.userInfo?[ManagedObjectContext.NotificationKey.insertedObjects.rawValue] as? Set<ManagedObject>
            printed.add("inserted \(inserted?.count ?? 0)")
        }
        let item = try context.insertNewObject(forEntityName: "Item")
        try item.setValue("first", forKey: "name")
        context.processPendingChanges()
        NotificationCenter.default.removeObserver(token)
        #expect(printed.all == ["inserted 1"])
    }

    final class TableUpdater: FetchedResultsControllerDelegate {
        var lines: [String] = []
        func controllerWillChangeContent(_ controller: FetchedResultsController) { lines.append("begin updates") }
        func controller(
            _ controller: FetchedResultsController, didChange object: ManagedObject, at indexPath: IndexPath?,
            for type: FetchedResultsChangeType, newIndexPath: IndexPath?
        ) {
            lines.append("\(type) \(indexPath.map(Array.init) ?? []) \(newIndexPath.map(Array.init) ?? [])")
        }
        func controller(
            _ controller: FetchedResultsController, didChange sectionInfo: FetchedResultsSectionInfo,
            atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType
        ) {
            lines.append("section \(type) \(sectionIndex)")
        }
        func controllerDidChangeContent(_ controller: FetchedResultsController) { lines.append("end updates") }
    }

    @Test("the controller example: sections, then a new group's first item")
    func controllerExample() throws {
        let context = ManagedObjectContext(coordinator: try ChangeTestSupport.coordinator())
        try ChangeTestSupport.item("a", "A", 1, in: context)
        try ChangeTestSupport.item("b", "A", 2, in: context)
        try ChangeTestSupport.item("c", "B", 1, in: context)
        try context.save()
        let request = FetchRequest(
            entityName: "Item", predicate: try PredicateNode(format: "rank >= 0", argumentArray: []),
            sortDescriptors: [FetchSortDescriptor(keyPath: "group"), FetchSortDescriptor(keyPath: "rank")])
        let controller = FetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "group", cacheName: nil)
        let updater = TableUpdater()
        controller.delegate = updater
        try controller.performFetch()
        #expect((controller.sections ?? []).map { "\($0.name) \($0.numberOfObjects)" } == ["A 2", "B 1"])
        // A group between A and B: a section insert at 1, then its row at [1, 0].
        try ChangeTestSupport.item("d", "AB", 5, in: context)
        try context.save()
        #expect(updater.lines == ["begin updates", "section insert 1", "insert [] [1, 0]", "end updates"])
    }

    @Test("refreshIfStoreChanged on a store nobody else wrote returns nil")
    func refreshExample() throws {
        let context = ManagedObjectContext(coordinator: try ChangeTestSupport.coordinator())
        #expect(try context.refreshIfStoreChanged() == nil)
    }
}
