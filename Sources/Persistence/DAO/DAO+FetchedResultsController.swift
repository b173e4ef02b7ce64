import CDQIStore

extension DAO {
    /// A fetched-results controller for the criteria's request in this DAO's context, grouped by
    /// `sectionNameKeyPath` (`nil`: one section); upstream's `newFetchedResultsController:sectionNameKeyPath:cacheName:`.
    /// Call `performFetch()` on it. The criteria must order the results (a controller needs sort
    /// descriptors); a problem is reported to the error handler and gives `nil`.
    public func newFetchedResultsController(
        _ criteria: CDSearchCriteria?, sectionNameKeyPath: String?, cacheName: String?
    ) -> FetchedResultsController! {
        reporting(nil) { try tryNewFetchedResultsController(criteria, sectionNameKeyPath: sectionNameKeyPath, cacheName: cacheName) }
    }

    /// The same as ``newFetchedResultsController(_:sectionNameKeyPath:cacheName:)`` (upstream has both names).
    public func createFetchedResultsController(
        _ criteria: CDSearchCriteria?, sectionNameKeyPath: String?, cacheName: String?
    ) -> FetchedResultsController! {
        newFetchedResultsController(criteria, sectionNameKeyPath: sectionNameKeyPath, cacheName: cacheName)
    }

    /// The throwing twin of ``newFetchedResultsController(_:sectionNameKeyPath:cacheName:)``.
    public func tryNewFetchedResultsController(
        _ criteria: CDSearchCriteria?, sectionNameKeyPath: String?, cacheName: String?
    ) throws(PersistenceError) -> FetchedResultsController {
        let request = try request(for: criteria)
        return FetchedResultsController(
            fetchRequest: request, managedObjectContext: managedObjectContext,
            sectionNameKeyPath: sectionNameKeyPath, cacheName: cacheName)
    }
}
