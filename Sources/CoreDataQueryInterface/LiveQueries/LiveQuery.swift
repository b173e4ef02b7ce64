import CDQIStore

/// A query observed: an `AsyncSequence` that yields the query's results when iteration starts, then
/// again after each save that changes them, until the iterating task is cancelled. Made by
/// ``Query/changes(in:)`` and ``Query/countChanges(in:)``.
///
/// - **What is watched**: every save that reaches the container's store: saves of any context of its
///   coordinator, batch deletes and updates (``BatchDeleteRequest``, ``BatchUpdateRequest``), and
///   writes of other processes once a context of the coordinator detects them
///   (`refreshIfStoreChanged()`, or a fetch of a context following its coordinator). Unsaved changes of
///   a context are not seen: results are what the store holds, as in GRDB's `ValueObservation`.
/// - **Each element** is what a fresh fetch returns at that moment. Saves made while the consumer is
///   busy are coalesced into one step, so intermediate states may be skipped; a save that leaves the
///   results as they were yields nothing (for object-ID results, unless an object in the list was
///   updated: see ``LiveQueryChange/updated``).
/// - **Fetching**: a sorted object-ID list without a window is kept incrementally: after the first
///   fetch, each save's inserted, updated and deleted objects are read, evaluated in memory and spliced
///   into the sorted IDs, unless the save changed an entity the query reads through a relationship,
///   came from another process, or touched too many objects (see the "Watching Changes" article). Other
///   results, and those cases, are fetched again on a new background context of the container, off the
///   caller's isolation. The elements are `Sendable`, so the sequence can be iterated from any actor.
/// - **Ending**: cancelling the iterating task (or leaving the loop) ends the sequence and stops
///   watching the coordinator. A failing fetch throws ``QueryError`` and ends it.
///
/// Each iteration observes on its own: two loops over one `LiveQuery` fetch independently.
public struct LiveQuery<Element: Sendable>: AsyncSequence, Sendable {
    /// The error a fetch can throw.
    public typealias Failure = QueryError

    let container: PersistentContainer
    let observer: any LiveQueryObserving<Element>

    /// Starts watching the coordinator's saves; the first call to `next()` fetches the initial results.
    public func makeAsyncIterator() -> Iterator {
        Iterator(container: container, observer: observer, signal: LiveQuerySignal(coordinator: container.coordinator))
    }

    /// Iterates a ``LiveQuery``: fetches when asked and when the store changed.
    public struct Iterator: AsyncIteratorProtocol {
        /// The error a fetch can throw.
        public typealias Failure = QueryError

        let container: PersistentContainer
        let observer: any LiveQueryObserving<Element>
        var cycle: LiveQueryCycle

        init(container: PersistentContainer, observer: any LiveQueryObserving<Element>, signal: LiveQuerySignal) {
            self.container = container
            self.observer = observer
            cycle = LiveQueryCycle(signal: signal)
        }

        /// The initial results on the first call; afterwards, waits for a save that changes the results
        /// and returns them. `nil` once the task is cancelled.
        ///
        /// - Throws: ``QueryError`` when a fetch fails; the sequence then ends.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(QueryError) -> Element? {
            while let changes = await cycle.nextFetch(isolation: actor) {
                let fetched: (element: Element?, state: any Sendable)
                do {
                    fetched = try await observer.step(previous: cycle.state, changes: changes, in: container)
                } catch {
                    throw cycle.fail(error)
                }
                cycle.state = fetched.state
                if let element = fetched.element { return element }
            }
            return nil
        }

        /// See ``next(isolation:)``.
        public mutating func next() async throws(QueryError) -> Element? {
            try await next(isolation: nil)
        }
    }
}
