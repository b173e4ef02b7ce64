import CDQIPredicate

/// What went wrong in a Persistence call. Upstream logs these and returns `nil`, `NO` or an empty
/// array; this port reports them to ``errorHandler`` the same way, and the `try…` twin of each method
/// throws them.
public enum PersistenceError: Error, Sendable, CustomStringConvertible {
    /// The factory was used before ``DAOFactory/setModel(_:)`` or ``DAOFactory/setModelURL(_:)``:
    /// Linux has no app bundle to merge models from.
    case modelNotSet
    /// A SQLite store was asked for before ``DAOFactory/setStorePath(_:)``.
    case storePathNotSet
    /// The model file at `path` could not be loaded.
    case modelNotLoadable(path: String, reason: String)
    /// ``DAOFactory/setStoreType(_:)`` named a type this port does not have (only `"SQLite"` and
    /// `"InMemory"` exist).
    case unsupportedStoreType(String)
    /// The seed store ("prefilled database") could not be copied to the store's place.
    case seedStoreNotCopied(from: String, to: String, reason: String)
    /// A filter's predicate could not be built (the value has no predicate form, or the filter wraps
    /// one that cannot take `ANY`/`ALL`).
    case invalidFilter(property: String?, reason: String)
    /// A fetch was asked of criteria that have no interceptor (no DAO supplied the base request); upstream
    /// answers `nil`.
    case noInterceptor
    /// Undo and redo: the store has no undo manager.
    case undoNotSupported
    /// An error of the store, the context or the predicate language, passed on as it is.
    case store(any Error)

    public var description: String {
        switch self {
        case .modelNotSet:
            "Persistence: no managed object model: call DAOFactory.setModel(_:) or DAOFactory.setModelURL(_:) before the factory's first use"
        case .storePathNotSet:
            "Persistence: no store path: call DAOFactory.setStorePath(_:) (or use NSInMemoryStoreType)"
        case .modelNotLoadable(let path, let reason):
            "Persistence: the model at \(path) could not be loaded: \(reason)"
        case .unsupportedStoreType(let type):
            "Persistence: store type \"\(type)\" is not supported (use NSSQLiteStoreType or NSInMemoryStoreType)"
        case .seedStoreNotCopied(let from, let to, let reason):
            "Persistence: the seed store \(from) could not be copied to \(to): \(reason)"
        case .invalidFilter(let property, let reason):
            "Persistence: the filter on \(property ?? "(no property)") has no predicate: \(reason)"
        case .noInterceptor:
            "Persistence: the criteria have no interceptor (register them with a DAO) and give no fetch request"
        case .undoNotSupported:
            "Persistence: undo and redo are not supported: the store has no undo manager"
        case .store(let error):
            "Persistence: \(error)"
        }
    }

    /// `error` as a Persistence error: itself when it is one, wrapped in ``store(_:)`` otherwise.
    static func wrapping(_ error: any Error) -> PersistenceError {
        (error as? PersistenceError) ?? .store(error)
    }
}
