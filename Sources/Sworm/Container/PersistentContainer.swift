import CDQIStore

/// The entry point: runs closures on a context of their own, saves what they changed and cleans up.
///
/// ```swift
/// let store = try CDQIStore.PersistentContainer(model: model, url: storeURL)
/// let db = Sworm.PersistentContainer(managedObjectContext: { store.newContext() })
/// let books = try db.perform { ctx in try ctx.fetch(Book.all).map { try $0.decode() } }
/// ```
/// In a file that imports both `Sworm` and `CDQIStore`, the names `PersistentContainer`,
/// `ManagedObjectContext` and `ManagedObject` exist in both: qualify them (`Sworm.PersistentContainer`,
/// `CDQIStore.PersistentContainer`).
///
/// **Threads.** Call ``perform(action:)`` and ``schedule(action:)`` from any number of threads and
/// tasks at once: each call asks `managedObjectContext` for a context and uses it alone, so the
/// closure must hand out a new context per call (as `{ store.newContext() }` does) and be safe to call
/// from any thread. Contexts share the store's coordinator, which serialises their saves. This is why
/// the container is `@unchecked Sendable`: its state is immutable and the closure's safety is the
/// caller's contract, as upstream.
public final class PersistentContainer: @unchecked Sendable {
    /// Kept for source compatibility with upstream (whose `perform` could end without a result on old
    /// systems); never thrown here.
    public enum Error: Swift.Error {
        case noResult
    }

    private let managedObjectContext: () throws -> CDQIStore.ManagedObjectContext
    private let logError: ((Swift.Error) -> Void)?
    private let cleanUpAfterExecution: Bool

    /// A container whose calls take their contexts from `managedObjectContext`, report every error to
    /// `logError` (before rethrowing it), and reset each context after use unless
    /// `cleanUpAfterExecution` is `false`.
    public init(
        managedObjectContext: @escaping () throws -> CDQIStore.ManagedObjectContext,
        logError: ((Swift.Error) -> Void)? = nil,
        cleanUpAfterExecution: Bool = true
    ) {
        self.managedObjectContext = managedObjectContext
        self.logError = logError
        self.cleanUpAfterExecution = cleanUpAfterExecution
    }

    /// Runs `action` on a context now, on the caller's thread: then, if nothing threw, throws the first
    /// failure of a non-throwing call (`encode`, relation setters) or saves the changes if there are
    /// any; resets the context (unless `cleanUpAfterExecution` is `false`). Any error (getting the
    /// context, the action's, the save's) is logged and rethrown; a failed save leaves the store as it
    /// was.
    @discardableResult
    public func perform<T>(action: @escaping (ManagedObjectContext) throws -> T) throws -> T {
        do {
            let context = ManagedObjectContext(try managedObjectContext())
            return try context.execute(reset: cleanUpAfterExecution, action)
        } catch {
            logError?(error)
            throw error
        }
    }

    /// ``perform(action:)`` as an asynchronous call, off the caller's actor (on the concurrent
    /// executor). Throws `CancellationError` without running `action` when the task is cancelled.
    ///
    /// `action` is sent off the caller's actor (`sending`): from the main actor, a closure that only
    /// uses its context and values it was given compiles; one that touches main-actor state does not.
    @discardableResult
    public func schedule<T>(action: sending @escaping (ManagedObjectContext) throws -> T) async throws -> sending T {
        try Task.checkCancellation()
        return try perform(action: action)
    }
}
