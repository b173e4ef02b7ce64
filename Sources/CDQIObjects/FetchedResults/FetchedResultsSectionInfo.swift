/// One section of a ``FetchedResultsController``'s results (Core Data's `NSFetchedResultsSectionInfo`).
public struct FetchedResultsSectionInfo {
    /// The section's name: the description of the section key path's value (`""` for nil).
    public let name: String
    /// The section's index title (by default the uppercased first character of the name; `nil` for `""`).
    public let indexTitle: String?
    /// The section's objects, in order.
    public let objects: [ManagedObject]

    /// The number of objects in the section.
    public var numberOfObjects: Int { objects.count }
}

/// The whole of a ``FetchedResultsController``'s results as IDs, after a fetch or a change, with the
/// objects that changed in place or moved (the shape of a diffable data-source snapshot).
public struct FetchedResultsSnapshot: Sendable, Hashable {
    /// Each section's name and its objects' IDs, in order.
    public var sections: [(name: String, itemIdentifiers: [ManagedObjectID])] {
        zip(sectionNames, items).map { ($0, $1) }
    }
    /// The section names, in order.
    public let sectionNames: [String]
    /// Each section's object IDs, in order.
    public let items: [[ManagedObjectID]]
    /// The IDs of the objects updated or moved by the change (empty after a fetch).
    public let reloadedItemIdentifiers: Set<ManagedObjectID>
}
