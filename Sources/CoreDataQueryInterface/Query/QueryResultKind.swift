/// What each result of a query is; it follows from the query's result type `R`.
enum QueryResultKind: Equatable, Sendable {
    /// Managed objects of the entity (`R == M`).
    case objects
    /// Object IDs (`R == ManagedObjectID`).
    case objectIDs
    /// `[String: Any]` dictionaries keyed by the selections' names.
    case dictionaries
    /// Typed rows: a value, or a tuple of values, decoded by a ``QueryRowDecoder``.
    case values
}
