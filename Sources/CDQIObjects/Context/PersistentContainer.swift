import CDQIModel
import Foundation

/// A model, its store and a main context, set up in one line:
/// ```swift
/// let container = try PersistentContainer(model: model, url: storeURL)   // or url: nil for in memory
/// let employee = try container.viewContext.insertNewObject(forEntityName: "Employee")
/// ```
///
/// The container is `Sendable`: it can be a `static let`, a property of an actor, of a `@MainActor`
/// class or of a server's shared state, and its ``performBackgroundTask(_:)`` and
/// ``newBackgroundContext()`` can be called from any isolation. Its contexts and their objects are not
/// `Sendable`: each stays with the task that uses it, and work crosses tasks as ``ManagedObjectID``s,
/// ``SaveChanges`` and plain values.
///
/// ## The view context
///
/// ``viewContext`` is the one context the container makes for its *owner*: in an app, the main actor;
/// in a command-line tool or a test, the code that made the container. It is made on first use (a
/// server that never touches it never pays for it) and is the same context every time afterwards.
/// Like every context it is confined: it must only ever be used by that one owner, never by two tasks
/// at once. The container cannot check this (the compiler sees a `Sendable` container handing out a
/// non-`Sendable` context, which is why the container's conformance is `@unchecked`: every other part
/// of it is immutable or guarded by a lock). Code that runs on other tasks (request handlers, actors,
/// task groups) uses a context of its own: ``newBackgroundContext()`` or ``performBackgroundTask(_:)``.
public final class PersistentContainer: @unchecked Sendable {
    /// The coordinator (shareable across tasks).
    public let coordinator: PersistentStoreCoordinator

    private let viewContextLock = NSLock()
    /// Guarded by `viewContextLock`: the view context, once made.
    private var madeViewContext: ManagedObjectContext?

    /// A container over a coordinator made already (a PostgreSQL store's, for one: see `CDQIPostgres`).
    public init(coordinator: PersistentStoreCoordinator) {
        self.coordinator = coordinator
    }

    /// The context of the container's owner (the main actor in an app, the creating code elsewhere),
    /// made on first use. Confined to that owner: see "The view context" above. Other tasks use
    /// ``newBackgroundContext()`` or ``performBackgroundTask(_:)``.
    public var viewContext: ManagedObjectContext {
        viewContextLock.withLock {
            if let made = madeViewContext { return made }
            let made = ManagedObjectContext(coordinator: coordinator)
            madeViewContext = made
            return made
        }
    }

    /// A new context on the same store, for the caller.
    public func newContext() -> ManagedObjectContext {
        ManagedObjectContext(coordinator: coordinator)
    }

    /// A new context on the same store, owned by no one yet: the result is `sending`, so the caller may
    /// keep it or hand it over whole to another task or actor (which then owns it, as a Core Data
    /// private-queue context is owned by its queue). Its ``ManagedObjectContext/perform(_:)`` runs in
    /// its owner's isolation.
    public func newBackgroundContext() -> sending ManagedObjectContext {
        ManagedObjectContext(coordinator: coordinator)
    }

    /// Runs `body` with a new context of its own, off the caller's isolation, and returns its result.
    /// The context never leaves `body`; pass object IDs, not objects, out of it. Callable from the main
    /// actor, from any actor and from nonisolated code.
    public func performBackgroundTask<T: Sendable>(
        _ body: @escaping @Sendable (ManagedObjectContext) throws -> T
    ) async throws -> T {
        try await coordinator.performBackgroundTask(body)
    }
}
