import CDQIPredicate
import CDQIStore

/// What a live query fetches and how it compares two fetches: one fetch of the query on a context,
/// and the element to yield for it (`nil`: nothing changed). The two `step` methods run one step of a
/// live query; by default they fetch and compare, and an observer that can apply changes without
/// fetching (``LiveIDListObserver``) provides its own.
protocol LiveQueryObserving<Element>: Sendable {
    associatedtype Element: Sendable
    /// What one fetch gives.
    associatedtype Fetched: Sendable

    /// Fetches the query on `context`.
    func fetch(_ context: ManagedObjectContext) throws(QueryError) -> Fetched

    /// Compares a fetch with `previous` (what this method returned as its state last time; `nil` for
    /// the first fetch, whose element is never `nil`). `updated` holds the objects changed since the
    /// previous fetch.
    func compare(previous: (any Sendable)?, fetched: Fetched, updated: Set<ManagedObjectID>) -> (element: Element?, state: any Sendable)

    /// One step of a live query on `context` (``ContextLiveQuery``): the results on the context with
    /// its unsaved changes, or as its store holds them, compared with `previous`.
    func step(
        previous: (any Sendable)?, changes: LiveQueryChanges, on context: ManagedObjectContext, includesUnsavedChanges: Bool
    ) throws(QueryError) -> (element: Element?, state: any Sendable)

    /// One step of a live query on `container` (``LiveQuery``): the results as the store holds them,
    /// compared with `previous`.
    func step(
        previous: (any Sendable)?, changes: LiveQueryChanges, in container: PersistentContainer
    ) async throws(QueryError) -> (element: Element?, state: any Sendable)
}

extension LiveQueryObserving {
    func step(
        previous: (any Sendable)?, changes: LiveQueryChanges, on context: ManagedObjectContext, includesUnsavedChanges: Bool
    ) throws(QueryError) -> (element: Element?, state: any Sendable) {
        try refetch(previous: previous, updated: changes.updated, on: context, includesUnsavedChanges: includesUnsavedChanges)
    }

    func step(
        previous: (any Sendable)?, changes: LiveQueryChanges, in container: PersistentContainer
    ) async throws(QueryError) -> (element: Element?, state: any Sendable) {
        try await refetch(previous: previous, updated: changes.updated, in: container)
    }

    /// Fetches on `context` (or, without its unsaved changes, on a new context of its coordinator) and
    /// compares with `previous` (see ``compare(previous:fetched:updated:)``).
    func refetch(
        previous: (any Sendable)?, updated: Set<ManagedObjectID>, on context: ManagedObjectContext, includesUnsavedChanges: Bool
    ) throws(QueryError) -> (element: Element?, state: any Sendable) {
        let target = includesUnsavedChanges ? context : ManagedObjectContext(coordinator: context.coordinator)
        return compare(previous: previous, fetched: try fetch(target), updated: updated)
    }

    /// Fetches on a new background context of `container` and compares.
    func refetch(
        previous: (any Sendable)?, updated: Set<ManagedObjectID>, in container: PersistentContainer
    ) async throws(QueryError) -> (element: Element?, state: any Sendable) {
        let fetched = try await Self.inBackground(of: container) { context throws(QueryError) in try self.fetch(context) }
        return compare(previous: previous, fetched: fetched, updated: updated)
    }

    /// Runs `body` on a new background context of `container`, passing query errors through and
    /// wrapping any other as ``QueryError/fetchFailed(_:)``.
    static func inBackground<T: Sendable>(
        of container: PersistentContainer, _ body: @escaping @Sendable (ManagedObjectContext) throws -> T
    ) async throws(QueryError) -> T {
        do {
            return try await container.performBackgroundTask { context in try body(context) }
        } catch let error as QueryError {
            throw error
        } catch {
            throw .fetchFailed(error)
        }
    }
}

/// A key that identifies one result row between two fetches.
enum LiveRowKey: Hashable, Sendable {
    /// An object or object-ID result: the object.
    case object(ManagedObjectID)
    /// A dictionary or typed row: its stored values, keyed as fetched.
    case row([String: StoredValue])

    var objectID: ManagedObjectID? {
        if case .object(let id) = self { id } else { nil }
    }
}

/// A list query observed: yields a ``LiveQueryChange`` whenever the list or an object in it changed.
struct LiveListObserver<Result: Sendable>: LiveQueryObserving {
    /// One fetch: the rows' keys and the results, in order.
    let rows: @Sendable (ManagedObjectContext) throws(QueryError) -> (keys: [LiveRowKey], results: [Result])

    func fetch(_ context: ManagedObjectContext) throws(QueryError) -> (keys: [LiveRowKey], results: [Result]) {
        try rows(context)
    }

    func compare(
        previous: (any Sendable)?, fetched: (keys: [LiveRowKey], results: [Result]), updated: Set<ManagedObjectID>
    ) -> (element: LiveQueryChange<Result>?, state: any Sendable) {
        let change = LiveQueryDifference.change(
            from: previous as? [LiveRowKey], to: fetched.keys, results: fetched.results, updated: updated, objectID: \.objectID)
        return (change, fetched.keys)
    }
}

/// A count observed: yields the number whenever it differs from the one before.
struct LiveCountObserver: LiveQueryObserving {
    let count: @Sendable (ManagedObjectContext) throws(QueryError) -> Int

    func fetch(_ context: ManagedObjectContext) throws(QueryError) -> Int { try count(context) }

    func compare(previous: (any Sendable)?, fetched: Int, updated: Set<ManagedObjectID>) -> (element: Int?, state: any Sendable) {
        (previous as? Int == fetched ? nil : fetched, fetched)
    }
}
