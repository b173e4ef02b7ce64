/// What happened to an object or a section of a ``FetchedResultsController`` (Core Data's raw values).
public enum FetchedResultsChangeType: Int, Sendable, Hashable {
    /// It appeared.
    case insert = 1
    /// It disappeared.
    case delete = 2
    /// It moved (an object only): from the old index path to the new one.
    case move = 3
    /// It changed in place (an object only).
    case update = 4
}

/// Why a ``FetchedResultsController`` could not fetch.
public enum FetchedResultsControllerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request has no sort descriptor: the controller needs at least one.
    case missingSortDescriptors(entity: String)
    /// The request has a fetch limit or offset, which the controller's incremental tracking does not
    /// support.
    case windowNotSupported(entity: String)

    /// A message naming the problem.
    public var description: String {
        switch self {
        case .missingSortDescriptors(let entity):
            "A fetched-results controller needs a request with at least one sort descriptor (entity \(entity))"
        case .windowNotSupported(let entity):
            "A fetched-results controller does not support a fetch limit or offset (entity \(entity))"
        }
    }
}
