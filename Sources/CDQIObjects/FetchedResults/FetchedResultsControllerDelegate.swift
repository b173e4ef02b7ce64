import Foundation

/// Told about changes to a ``FetchedResultsController``'s results (Core Data's
/// `NSFetchedResultsControllerDelegate`). Every method has a default that does nothing.
///
/// One processing of the context's changes produces, in this order (as Core Data does on iOS 26):
/// ``controllerWillChangeContent(_:)``; object deletes (old index paths); section inserts; section
/// deletes; object inserts (new index paths); updates and moves (old and new index paths);
/// ``controllerDidChangeContent(_:)``; then `controller(_:didChangeContentWith:)` with a snapshot (when
/// ``FetchedResultsController/deliversSnapshots`` is on) and,
/// for a controller without sections, `controller(_:didChangeContentWith:)` with a collection
/// difference. When nothing in the results changed, nothing is called. Index paths are
/// `[section, row]`; "old" paths refer to the results before the change and "new" ones to after, as
/// a table view's batch updates read them.
///
/// Unlike Core Data (which looks at which optional methods the delegate implements), every method is
/// called: the row callbacks, the snapshot and the difference all describe the same change.
public protocol FetchedResultsControllerDelegate: AnyObject {
    /// The results are about to change.
    func controllerWillChangeContent(_ controller: FetchedResultsController)
    /// An object was inserted (`indexPath` nil), deleted (`newIndexPath` nil), moved, or updated
    /// (`newIndexPath` its new path, or nil when an update of a sort key left it where it was).
    func controller(
        _ controller: FetchedResultsController, didChange object: ManagedObject, at indexPath: IndexPath?,
        for type: FetchedResultsChangeType, newIndexPath: IndexPath?)
    /// A section was inserted (at its new index) or deleted (at its old index).
    func controller(
        _ controller: FetchedResultsController, didChange sectionInfo: FetchedResultsSectionInfo,
        atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType)
    /// The results have changed.
    func controllerDidChangeContent(_ controller: FetchedResultsController)
    /// The index title of a section; by default the controller's ``FetchedResultsController/sectionIndexTitle(forSectionName:)``.
    func controller(_ controller: FetchedResultsController, sectionIndexTitleForSectionName sectionName: String) -> String?
    /// The results after a fetch or a change, as IDs.
    func controller(_ controller: FetchedResultsController, didChangeContentWith snapshot: FetchedResultsSnapshot)
    /// A controller without sections: the change as a collection difference over object IDs (an updated
    /// or moved object is a remove/insert pair associated with each other, even when it did not move).
    func controller(
        _ controller: FetchedResultsController, didChangeContentWith difference: CollectionDifference<ManagedObjectID>)
}

extension FetchedResultsControllerDelegate {
    /// Does nothing.
    public func controllerWillChangeContent(_ controller: FetchedResultsController) {}
    /// Does nothing.
    public func controller(
        _ controller: FetchedResultsController, didChange object: ManagedObject, at indexPath: IndexPath?,
        for type: FetchedResultsChangeType, newIndexPath: IndexPath?
    ) {}
    /// Does nothing.
    public func controller(
        _ controller: FetchedResultsController, didChange sectionInfo: FetchedResultsSectionInfo,
        atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType
    ) {}
    /// Does nothing.
    public func controllerDidChangeContent(_ controller: FetchedResultsController) {}
    /// The controller's default title.
    public func controller(_ controller: FetchedResultsController, sectionIndexTitleForSectionName sectionName: String) -> String? {
        controller.sectionIndexTitle(forSectionName: sectionName)
    }
    /// Does nothing.
    public func controller(_ controller: FetchedResultsController, didChangeContentWith snapshot: FetchedResultsSnapshot) {}
    /// Does nothing.
    public func controller(
        _ controller: FetchedResultsController, didChangeContentWith difference: CollectionDifference<ManagedObjectID>
    ) {}
}
