import CDQIStore

/// A query observed in one context: an `AsyncSequence` that yields the query's results, fetched on the
/// context, when iteration starts, then again after each change that changes them, until the iterating
/// task is cancelled. Made by ``Query/changes(in:includingUnsavedChanges:)`` and
/// ``Query/countChanges(in:includingUnsavedChanges:)`` given a context.
///
/// - **What is watched**: every save of the context's coordinator (this context's, other contexts',
///   batch writes, detected writes of other processes), and, with unsaved changes included (the
///   default), the context's own changes each time they are processed: ``ManagedObjectContext/processPendingChanges()``,
///   which runs at the end of ``ManagedObjectContext/perform(_:)``, before every fetch and at a save.
///   An edit not yet processed is not seen until then, as Core Data's fetched-results controller
///   does not see it.
/// - **Each element** is what a fetch of the query on the context returns at that moment: with unsaved
///   changes, the context's inserted objects are in it (with their temporary IDs) and its deleted ones
///   are not; without, it is what the store holds, fetched on a fresh context of the coordinator.
///   Object and ID results and counts see unsaved changes; typed rows, aggregates and dictionaries are
///   what the store holds either way, as Core Data's dictionary fetches ignore pending changes.
///   Changes that arrive while the consumer is busy are coalesced into one step; a change that leaves
///   the results as they were yields nothing. When the context saves an object the results hold with
///   a temporary ID, the next element has its permanent ID at the same offset, reported in
///   ``LiveQueryChange/updated``, not as a removal and an insertion; the rows of the other objects a
///   save writes are reported as updated too.
/// - **Incremental**: a sorted object-ID list without a window is kept up to date from the changed
///   objects (as ``LiveQuery`` keeps it), also with unsaved changes when the context merges other
///   contexts' saves (``ManagedObjectContext/automaticallyMergesChangesFromParent``); otherwise, and for
///   other results, each step fetches again.
/// - **Isolation**: the context is not `Sendable`, and neither is this sequence: iterate it where the
///   context is used (the task or actor that made it).
/// - **Ending**: cancelling the iterating task (or leaving the loop) ends the sequence and its
///   subscriptions. A failing fetch throws ``QueryError`` and ends it.
public struct ContextLiveQuery<Element: Sendable>: AsyncSequence {
    /// The error a fetch can throw.
    public typealias Failure = QueryError

    let context: ManagedObjectContext
    let includesUnsavedChanges: Bool
    let observer: any LiveQueryObserving<Element>

    /// Starts watching the context and its coordinator; the first call to `next()` fetches the initial
    /// results.
    public func makeAsyncIterator() -> Iterator {
        let signal = LiveQuerySignal(coordinator: context.coordinator, context: includesUnsavedChanges ? context : nil)
        return Iterator(context: context, includesUnsavedChanges: includesUnsavedChanges, observer: observer, signal: signal)
    }

    /// Iterates a ``ContextLiveQuery``: fetches on the context when asked and when something changed.
    public struct Iterator: AsyncIteratorProtocol {
        /// The error a fetch can throw.
        public typealias Failure = QueryError

        let context: ManagedObjectContext
        let includesUnsavedChanges: Bool
        let observer: any LiveQueryObserving<Element>
        var cycle: LiveQueryCycle
        /// The objects of the last results that had temporary IDs, by those IDs: after a save, their
        /// rows are recognized under their permanent IDs.
        var temporaries: [ManagedObjectID: ManagedObject] = [:]

        init(
            context: ManagedObjectContext, includesUnsavedChanges: Bool, observer: any LiveQueryObserving<Element>,
            signal: LiveQuerySignal
        ) {
            self.context = context
            self.includesUnsavedChanges = includesUnsavedChanges
            self.observer = observer
            cycle = LiveQueryCycle(signal: signal)
        }

        /// The initial results on the first call; afterwards, waits for a change that changes the results
        /// and returns them. `nil` once the task is cancelled.
        ///
        /// - Throws: ``QueryError`` when a fetch fails; the sequence then ends.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(QueryError) -> Element? {
            while var changes = await cycle.nextFetch(isolation: actor) {
                let renamed = renameSavedTemporaries()
                changes.updated.formUnion(renamed)
                changes.touched.formUnion(renamed)
                let fetched: (element: Element?, state: any Sendable)
                do {
                    fetched = try observer.step(
                        previous: cycle.state, changes: changes, on: context, includesUnsavedChanges: includesUnsavedChanges)
                } catch {
                    throw cycle.fail(error)
                }
                cycle.state = fetched.state
                rememberTemporaries()
                if let element = fetched.element { return element }
            }
            return nil
        }

        /// See ``next(isolation:)``.
        public mutating func next() async throws(QueryError) -> Element? {
            try await next(isolation: nil)
        }

        /// Rewrites the previous results' keys of objects saved since (temporary ID → permanent ID), and
        /// returns their permanent IDs (their rows changed in place).
        private mutating func renameSavedTemporaries() -> Set<ManagedObjectID> {
            guard !temporaries.isEmpty else { return [] }
            if let state = cycle.state as? LiveIDListState {
                var renames: [ManagedObjectID: ManagedObjectID] = [:]
                for (id, object) in temporaries where object.objectID != id && state.results.contains(id) { renames[id] = object.objectID }
                state.results.rename(renames)
                return Set(renames.values)
            }
            guard var keys = cycle.state as? [LiveRowKey] else { return [] }
            var renamed = Set<ManagedObjectID>()
            for (offset, key) in keys.enumerated() {
                guard let id = key.objectID, let object = temporaries[id], object.objectID != id else { continue }
                keys[offset] = .object(object.objectID)
                renamed.insert(object.objectID)
            }
            if !renamed.isEmpty { cycle.state = keys }
            return renamed
        }

        /// Keeps the objects behind the temporary IDs of the results just fetched.
        private mutating func rememberTemporaries() {
            temporaries = [:]
            guard includesUnsavedChanges else { return }
            if let results = (cycle.state as? LiveIDListState)?.results {
                // Objects with temporary IDs have unsaved changes: they are among those the results track.
                for id in results.unsavedIDs where id.isTemporaryID && results.contains(id) {
                    if let object = context.registeredObject(for: id) { temporaries[id] = object }
                }
                return
            }
            guard let keys = cycle.state as? [LiveRowKey] else { return }
            for key in keys {
                guard let id = key.objectID, id.isTemporaryID, let object = context.registeredObject(for: id) else { continue }
                temporaries[id] = object
            }
        }
    }
}
