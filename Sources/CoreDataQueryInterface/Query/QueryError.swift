import CDQIStore

/// Why running a query failed. Every case names what the caller needs to fix the problem.
public enum QueryError: Error, CustomStringConvertible {
    /// The query was run with no context: none bound with ``Query/context(_:)`` or
    /// `ManagedObjectContext.from(_:)`, and none passed as `managedObjectContext:`.
    case noContext(entity: String)
    /// The context made an object of the entity that is not an instance of the query's class, because
    /// the class is not registered for the entity with `PersistentStoreCoordinator.register(_:forEntityName:)`.
    case notAnInstance(entity: String, expectedClass: String, actualClass: String)
    /// A selected column held a value the Swift type asked for cannot represent (a string where an
    /// `Int32` was expected, an integer out of the type's range, …).
    case valueMismatch(column: String, expected: String, actual: String)
    /// Two different selected expressions would share one result name; give one an alias.
    case duplicateColumnName(String)
    /// The store refused or failed the fetch (an unknown key path, a predicate SQL cannot express, an
    /// SQLite error, …); the underlying error says which.
    case fetchFailed(any Error)
    /// A batch delete or update (``Query/batchDelete(managedObjectContext:)``,
    /// ``Query/batchUpdate(managedObjectContext:_:)``) was refused; the ``BatchError`` says why. Nothing
    /// was written.
    case batchFailed(BatchError)

    /// A sentence describing the problem.
    public var description: String {
        switch self {
        case .noContext(let entity):
            return "the query on '\(entity)' has no managed object context: bind one with .context(_:) or "
                + "context.from(_:), or pass managedObjectContext: when running it"
        case .notAnInstance(let entity, let expected, let actual):
            return "objects of entity '\(entity)' are instances of '\(actual)', not '\(expected)': register the class "
                + "with coordinator.register(\(expected).self, forEntityName: \"\(entity)\")"
        case .valueMismatch(let column, let expected, let actual):
            return "column '\(column)' holds \(actual), which is not \(expected)"
        case .duplicateColumnName(let name):
            return "two different selected expressions are both named '\(name)'; give one of them an alias"
        case .fetchFailed(let error):
            return "the fetch failed: \(error)"
        case .batchFailed(let error):
            return "the batch write failed: \(error)"
        }
    }
}
