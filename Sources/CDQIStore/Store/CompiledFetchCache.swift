import CDQIPredicate

/// The SQL of fetches already compiled on a store, by shape: the entity, the predicate with its
/// constants replaced by slots (and their classes), the order, and whether there is a window. A fetch
/// of a known shape only binds its constants to the cached statement.
final class CompiledFetchCache {
    struct Key: Hashable {
        var entityName: String
        var shape: FetchSQLBuilder.Shape
        var includesSubentities: Bool
        var hasWindow: Bool
        var sortDescriptors: [FetchSortDescriptor]
        var predicate: PredicateNode?
        var classes: [PredicateParameterizer.ConstantClass]
    }

    struct Entry {
        var sql: String
        var bindings: [SQLBinding]
    }

    /// More shapes than this means the queries are generated; the cache then starts over.
    static let capacity = 512
    private var entries: [Key: Entry] = [:]

    subscript(key: Key) -> Entry? {
        get { entries[key] }
        set {
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = newValue
        }
    }

    var count: Int { entries.count }
}
