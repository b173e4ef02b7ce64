/// One component of a key path: a key, or a KVC collection operator (`@count`, `@sum`, …).
public enum KeyPathComponent: Sendable, Hashable {
    /// A key looked up on the current value.
    case key(String)
    /// A collection operator; the components after it apply to each element.
    case collectionOperator(CollectionOperator)
}

/// The KVC collection operators (§1.2, §3.8).
public enum CollectionOperator: String, Sendable, Hashable, CaseIterable {
    /// `@count` (non-nil values), `@sum`, `@avg`, `@min`, `@max`.
    case count, sum, avg, min, max
    /// The union operators (in-memory only).
    case distinctUnionOfObjects, unionOfObjects, distinctUnionOfArrays, unionOfArrays, distinctUnionOfSets

    /// Whether the operator must be followed by a key path (all but `@count`).
    public var requiresKeyPath: Bool { self != .count }
}
