import CDQIStore

/// What changed since a live query's last fetch, gathered from the events it watches: the objects
/// touched (inserted, updated, deleted, refreshed, invalidated), those updated (reported as updated
/// rows when they keep their place), and whether the touched objects are all there is to know.
struct LiveQueryChanges: Sendable {
    /// Objects whose rows or unsaved state changed.
    var touched: Set<ManagedObjectID> = []
    /// Objects whose rows were updated in place (``LiveQueryChange/updated``).
    var updated: Set<ManagedObjectID> = []
    /// `false` when an event did not say which objects it changed (a write of another process, a
    /// context's reset): only a refetch tells.
    var isComplete = true

    /// Adds another event's changes.
    mutating func formUnion(_ other: LiveQueryChanges) {
        touched.formUnion(other.touched)
        updated.formUnion(other.updated)
        isComplete = isComplete && other.isComplete
    }

    /// Whether nothing is known to have changed.
    var isEmpty: Bool { touched.isEmpty && updated.isEmpty && isComplete }
}
