import CDQIPredicate
import CDQIStore

/// What a live query fetches and how it compares two fetches: one fetch of the query on a new
/// background context, and the element to yield for it (`nil`: nothing changed).
protocol LiveQueryObserving<Element>: Sendable {
    associatedtype Element: Sendable

    /// Fetches the query now and compares the result with `previous` (what this method returned as its
    /// state last time; `nil` for the first fetch, whose element is never `nil`). `updated` holds the
    /// objects the saves since the previous fetch updated.
    func step(
        previous: (any Sendable)?, updated: Set<ManagedObjectID>, in container: PersistentContainer
    )
        async throws(QueryError) -> (element: Element?, state: any Sendable)
}

extension LiveQueryObserving {
    /// Runs `body` on a new background context of `container`, passing query errors through and wrapping
    /// any other as ``QueryError/fetchFailed(_:)``.
    static func fetch<T: Sendable>(
        in container: PersistentContainer, _ body: @escaping @Sendable (ManagedObjectContext) throws(QueryError) -> T
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

    func step(
        previous: (any Sendable)?, updated: Set<ManagedObjectID>, in container: PersistentContainer
    )
        async throws(QueryError) -> (element: LiveQueryChange<Result>?, state: any Sendable)
    {
        let fetched = try await Self.fetch(in: container, rows)
        let change = LiveQueryDifference.change(
            from: previous as? [LiveRowKey], to: fetched.keys, results: fetched.results, updated: updated, objectID: \.objectID)
        return (change, fetched.keys)
    }
}

/// A count observed: yields the number whenever it differs from the one before.
struct LiveCountObserver: LiveQueryObserving {
    let count: @Sendable (ManagedObjectContext) throws(QueryError) -> Int

    func step(
        previous: (any Sendable)?, updated: Set<ManagedObjectID>, in container: PersistentContainer
    )
        async throws(QueryError) -> (element: Int?, state: any Sendable)
    {
        let now = try await Self.fetch(in: container, count)
        return (previous as? Int == now ? nil : now, now)
    }
}
