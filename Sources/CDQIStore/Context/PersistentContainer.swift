import CDQIModel
import Foundation

/// A model, its store and a main context, set up in one line:
/// ```swift
/// let container = try PersistentContainer(model: model, url: storeURL)   // or url: nil for in memory
/// let employee = try container.viewContext.insertNewObject(forEntityName: "Employee")
/// ```
public final class PersistentContainer {
    /// The coordinator (shareable across tasks).
    public let coordinator: PersistentStoreCoordinator
    /// A context for the owner of the container (confined to it, like every context).
    public let viewContext: ManagedObjectContext

    /// Opens (or creates) the store at `url`, or an in-memory store when `url` is `nil`.
    public init(model: ManagedObjectModel, url: URL?) throws(StoreError) {
        coordinator = try PersistentStoreCoordinator(model: model, url: url)
        viewContext = ManagedObjectContext(coordinator: coordinator)
    }

    /// A new context on the same store.
    public func newContext() -> ManagedObjectContext {
        ManagedObjectContext(coordinator: coordinator)
    }

    /// Runs `body` with a new context of its own, off the caller's isolation, and returns its result.
    /// The context never leaves `body`; pass object IDs, not objects, out of it.
    public func performBackgroundTask<T: Sendable>(
        _ body: @escaping @Sendable (ManagedObjectContext) throws -> T
    ) async throws -> T {
        try await coordinator.performBackgroundTask(body)
    }
}
