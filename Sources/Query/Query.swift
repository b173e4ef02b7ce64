import CDQIPredicate
import CDQIStore

/// A chainable query builder for a context's objects of one class.
///
/// `Query` is a value: none of its methods mutate it; each returns a new query with the condition or
/// the order added, so a query can be kept and extended in several ways.
///
/// ```swift
/// let entities = try Entity.query(in: context)
///     .where("quantity == 1")
///     .order(by: "date")
///     .all()
/// ```
///
/// Successive `where`s combine with AND; an `or` combines everything before it with its own
/// condition, as if the earlier conditions were in parentheses: `where(A).where(B).or(C)` is
/// `(A AND B) OR C`. Results include the context's unsaved changes.
///
/// Building never fails: a malformed format string, an `or` without a `where` or an unknown key is
/// kept, and the call that runs the query throws it as a ``QueryError``.
public struct Query<T: ManagedObject> {
    /// The order of a sort key.
    public enum SortDirection: Sendable, Hashable {
        /// Smallest first (1, 2, 3, …).
        case ascending
        /// Largest first (3, 2, 1, …).
        case descending
    }

    /// How string values of a sort key compare.
    public enum Selector: Sendable, Hashable {
        /// Case-sensitive and locale-unaware: by code point (`compare:`).
        case none
        /// Finder-like: case-insensitive, digit runs compared as numbers (`localizedStandardCompare:`).
        case localizedStandard
        /// Case-insensitive (`localizedCaseInsensitiveCompare:`).
        case localizedCaseInsensitive
    }

    /// The context the query runs in.
    public let context: ManagedObjectContext

    /// The conditions, combined with AND when the query runs.
    @usableFromInline var clauses: [PredicateNode] = []
    /// The sort keys, in call order.
    var sortDescriptors: [FetchSortDescriptor] = []
    /// The values a new object of `firstOrInsert()` gets, by key; `nil` once a condition makes them
    /// indeterminate.
    @usableFromInline var defaultValues: [String: Any]? = [:]
    /// The keys named by dictionary conditions and sort keys, checked against the entity when the
    /// query runs.
    @usableFromInline var namedKeys: [String] = []
    /// The first problem met while building, thrown by the call that runs the query.
    @usableFromInline var failure: QueryError?

    /// Creates a query for objects of `T` in a context.
    public init(in context: ManagedObjectContext) {
        self.context = context
    }

    /// A copy with `change` applied, unless an earlier problem is kept (then the query stays as it is).
    @inlinable func adding(_ change: (inout Query<T>) throws(QueryError) -> Void) -> Query<T> {
        var query = self
        guard query.failure == nil else { return query }
        do {
            try change(&query)
        } catch {
            query.failure = error
        }
        return query
    }

    /// The predicate the conditions make: `TRUEPREDICATE` when there are none.
    var predicate: PredicateNode {
        switch clauses.count {
        case 0: return .truePredicate
        case 1: return clauses[0]
        default: return .and(clauses)
        }
    }
}
