import CDQIStore

/// An object-ID query observed incrementally where that is exact (see ``IncrementalResultsPlan``):
/// after the first fetch, the results are kept sorted with their sort keys, and each change is applied
/// by evaluating only the objects it touched (``IncrementalResults``). A change that cannot be applied
/// exactly — an event that does not say what it changed (a write of another process, a reset), an
/// object of an entity the query reads through a relationship, more objects than splicing pays for —
/// and any query the plan refuses (no sort, a window, `SUBQUERY`, …) fetch again, as ``LiveListObserver``
/// does.
struct LiveIDListObserver: LiveQueryObserving {
    typealias Element = LiveQueryChange<ManagedObjectID>

    /// The query's request (object IDs, in its order).
    let request: FetchRequest
    /// The plain fetch-and-compare observer of the same query.
    let refetching: LiveListObserver<ManagedObjectID>

    func fetch(_ context: ManagedObjectContext) throws(QueryError) -> (keys: [LiveRowKey], results: [ManagedObjectID]) {
        try refetching.fetch(context)
    }

    func compare(
        previous: (any Sendable)?, fetched: (keys: [LiveRowKey], results: [ManagedObjectID]), updated: Set<ManagedObjectID>
    ) -> (element: Element?, state: any Sendable) {
        refetching.compare(previous: previous, fetched: fetched, updated: updated)
    }

    func step(
        previous: (any Sendable)?, changes: LiveQueryChanges, on context: ManagedObjectContext, includesUnsavedChanges: Bool
    ) throws(QueryError) -> (element: Element?, state: any Sendable) {
        // A context that does not merge other contexts' saves keeps its objects' old values, and its
        // fetch sorts by them when it has unsaved changes: only a fetch tells what it returns.
        let coherent = !includesUnsavedChanges || context.automaticallyMergesChangesFromParent
        if let state = previous as? LiveIDListState, changes.isComplete, coherent {
            let outcome =
                includesUnsavedChanges
                ? state.results.apply(touched: changes.touched, updated: changes.updated, in: context)
                : state.results.apply(touched: changes.touched, updated: changes.updated, storeOf: context.coordinator)
            if let applied = Self.element(outcome, state: state) { return applied }
        }
        guard coherent, let plan = IncrementalResultsPlan(request: request, model: context.coordinator.model) else {
            let before = (previous as? LiveIDListState).map { $0.results.ids.map(LiveRowKey.object) } ?? previous
            return try refetch(previous: before, updated: changes.updated, on: context, includesUnsavedChanges: includesUnsavedChanges)
        }
        let target = includesUnsavedChanges ? context : ManagedObjectContext(coordinator: context.coordinator)
        let results: IncrementalResults
        do {
            results = try IncrementalResults.fetch(plan, on: target, tracksUnsavedChanges: includesUnsavedChanges)
        } catch let error as QueryError {
            throw error
        } catch {
            throw .fetchFailed(error)
        }
        return Self.compare(previous: previous, fetched: results, updated: changes.updated)
    }

    func step(
        previous: (any Sendable)?, changes: LiveQueryChanges, in container: PersistentContainer
    ) async throws(QueryError) -> (element: Element?, state: any Sendable) {
        if let state = previous as? LiveIDListState, changes.isComplete {
            let outcome = state.results.apply(touched: changes.touched, updated: changes.updated, storeOf: container.coordinator)
            if let applied = Self.element(outcome, state: state) { return applied }
        }
        guard let plan = IncrementalResultsPlan(request: request, model: container.coordinator.model) else {
            return try await refetch(previous: previous, updated: changes.updated, in: container)
        }
        let results = try await Self.inBackground(of: container) { context in
            try IncrementalResults.fetch(plan, on: context, tracksUnsavedChanges: false)
        }
        return Self.compare(previous: previous, fetched: results, updated: changes.updated)
    }

    /// The element for an applied change, or `nil` when it must be fetched again.
    private static func element(
        _ outcome: IncrementalResults.Outcome, state: LiveIDListState
    ) -> (element: Element?, state: any Sendable)? {
        switch outcome {
        case .unchanged:
            return (nil, state)
        case .changed(let splice):
            let change = LiveQueryChange(
                results: state.results.ids, isInitial: false, removed: splice.removed, inserted: splice.inserted,
                moved: splice.moved.map { LiveQueryChange<ManagedObjectID>.Move(from: $0.from, to: $0.to) },
                updated: splice.updated)
            return (change, state)
        case .refetch:
            return nil
        }
    }

    /// The change from the previous results (kept incrementally or as keys) to a fetch.
    private static func compare(
        previous: (any Sendable)?, fetched: IncrementalResults, updated: Set<ManagedObjectID>
    ) -> (element: Element?, state: any Sendable) {
        let before: [ManagedObjectID]? =
            if let state = previous as? LiveIDListState {
                state.results.ids
            } else if let keys = previous as? [LiveRowKey] {
                keys.compactMap(\.objectID)
            } else {
                nil
            }
        let change = LiveQueryDifference.change(
            from: before, to: fetched.ids, results: fetched.ids, updated: updated, objectID: { $0 })
        return (change, LiveIDListState(fetched))
    }
}

/// The results an ``LiveIDListObserver`` keeps between steps. A reference, so that a step changes them
/// in place: copying 10,000 IDs with their keys would cost more than the step itself.
///
/// `@unchecked Sendable`: it is only used by the iterator that holds it, one step at a time.
final class LiveIDListState: @unchecked Sendable {
    var results: IncrementalResults

    init(_ results: IncrementalResults) {
        self.results = results
    }
}
