import CDQIStore

/// The changeset between two fetches of a live query, worked out on the rows' keys: object IDs for
/// object and ID queries, the stored values of each row for dictionary and typed queries.
enum LiveQueryDifference {
    /// The change from `previous` (nil: the first fetch) to `current`, or `nil` when there is nothing to
    /// tell: the same keys in the same order and no row's object in `updated`.
    static func change<Key: Hashable, Result>(
        from previous: [Key]?, to current: [Key], results: [Result], updated: Set<ManagedObjectID>,
        objectID: (Key) -> ManagedObjectID?
    ) -> LiveQueryChange<Result>? {
        guard let previous else {
            return LiveQueryChange(
                results: results, isInitial: true, removed: [], inserted: Array(current.indices), moved: [], updated: [])
        }
        var removed: [Int] = []
        var inserted: [Int] = []
        var moved: [LiveQueryChange<Result>.Move] = []
        var placed = Set<Int>()
        if previous != current {
            let difference = current.difference(from: previous).inferringMoves()
            for step in difference {
                switch step {
                case .remove(let offset, _, let associated):
                    if associated == nil { removed.append(offset) }
                case .insert(let offset, _, let associated):
                    placed.insert(offset)
                    if let associated {
                        moved.append(.init(from: associated, to: offset))
                    } else {
                        inserted.append(offset)
                    }
                }
            }
        }
        var changedInPlace: [Int] = []
        if !updated.isEmpty {
            for (offset, key) in current.enumerated() where !placed.contains(offset) {
                if let id = objectID(key), updated.contains(id) { changedInPlace.append(offset) }
            }
        }
        if removed.isEmpty, inserted.isEmpty, moved.isEmpty, changedInPlace.isEmpty { return nil }
        return LiveQueryChange(
            results: results, isInitial: false, removed: removed.sorted(), inserted: inserted.sorted(),
            moved: moved.sorted { $0.to < $1.to }, updated: changedInPlace)
    }
}
