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

    /// A compiled shape: its SQL, what to bind, and the statement prepared for it on the store's
    /// connection (kept here so that running the shape again skips the connection's lookup by SQL text).
    final class Entry {
        let sql: String
        let bindings: [SQLBinding]
        var statement: SQLiteStatement?

        init(sql: String, bindings: [SQLBinding]) {
            self.sql = sql
            self.bindings = bindings
        }
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
