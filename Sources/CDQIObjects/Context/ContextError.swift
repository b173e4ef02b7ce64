/// Why a context operation failed. A failed ``ManagedObjectContext/save()`` changes nothing on disk
/// and leaves the context as it was (still dirty).
public enum ContextError: Error, Sendable, CustomStringConvertible {
    /// The model has no entity with this name.
    case unknownEntity(String)
    /// The entity is abstract: it has no objects of its own.
    case abstractEntity(String)
    /// No object with this ID exists in the store.
    case objectNotFound(objectID: String)
    /// The object belongs to another context.
    case foreignObject(objectID: String)
    /// The save was refused: every validation failure found (Core Data's
    /// `NSValidationMultipleErrorsError` 1560 when there are several).
    case validation([ValidationFailure])
    /// The save was refused: objects changed in the store since they were read (merge policy `.error`;
    /// Core Data's `NSManagedObjectMergeError` 133020).
    case mergeConflicts([MergeConflict])
    /// Reading or changing an object failed.
    case object(ManagedObjectError)
    /// The store failed.
    case store(StoreError)

    /// A sentence describing the value.
    public var description: String {
        switch self {
        case .unknownEntity(let name): return "the model has no entity '\(name)'"
        case .abstractEntity(let name): return "entity '\(name)' is abstract and cannot have objects of its own"
        case .objectNotFound(let id): return "no object \(id) in the store"
        case .foreignObject(let id): return "the object \(id) belongs to another context"
        case .validation(let failures):
            return "the save was refused: \(failures.count) validation failure\(failures.count == 1 ? "" : "s"):\n"
                + failures.map { "  - \($0)" }.joined(separator: "\n")
        case .mergeConflicts(let conflicts):
            return "the save was refused: \(conflicts.count) merge conflict\(conflicts.count == 1 ? "" : "s"):\n"
                + conflicts.map { "  - \($0)" }.joined(separator: "\n")
        case .object(let error): return error.description
        case .store(let error): return error.description
        }
    }
}
