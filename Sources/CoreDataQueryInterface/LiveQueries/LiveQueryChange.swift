import CDQIStore

/// One element of a live query (``Query/changes(in:)``): the results now, and how they differ from the
/// results of the element before (the changeset a table or list view applies).
///
/// Offsets follow `CollectionDifference`'s rules: ``removed`` and the sources of ``moved`` are offsets
/// in the previous results; ``inserted`` and the destinations of ``moved`` are offsets in ``results``.
/// Removing every removed and moved-from offset from the previous results (highest first), then
/// inserting every inserted and moved-to element of ``results`` (lowest first), gives ``results``
/// exactly. ``updated`` names rows that stayed where they were but whose object changed.
///
/// The first element of a sequence has ``isInitial`` set and every row in ``inserted``.
public struct LiveQueryChange<Result: Sendable>: Sendable {
    /// A row that moved: its offset in the previous results and in the new ones.
    public struct Move: Sendable, Hashable {
        /// The offset in the previous results.
        public var from: Int
        /// The offset in ``LiveQueryChange/results``.
        public var to: Int

        /// Creates a move.
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// The results now, in the query's order: what a fresh fetch of the query returns.
    public var results: [Result]
    /// Whether this is the sequence's first element (the results when observation began).
    public var isInitial: Bool
    /// Offsets, in the previous results, of the rows that are gone (moves excluded), ascending.
    public var removed: [Int]
    /// Offsets, in ``results``, of the rows that are new (moves excluded), ascending.
    public var inserted: [Int]
    /// The rows that changed place, ordered by destination.
    public var moved: [Move]
    /// Offsets, in ``results``, of rows neither inserted nor moved whose object a save updated. Only
    /// object-ID results have them: a dictionary or typed row is its values, so a changed row is a
    /// removal and an insertion.
    public var updated: [Int]

    /// Creates a change.
    public init(
        results: [Result], isInitial: Bool, removed: [Int], inserted: [Int], moved: [Move], updated: [Int]
    ) {
        self.results = results
        self.isInitial = isInitial
        self.removed = removed
        self.inserted = inserted
        self.moved = moved
        self.updated = updated
    }
}
