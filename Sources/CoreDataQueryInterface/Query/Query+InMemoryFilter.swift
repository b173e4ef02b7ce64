import CDQIStore

/// A query is not a `Sequence`: if it were, a filter closure that returns `Bool`
/// (`.filter { $0.department == nil }` read as the object's property, `.filter { ($0.n ?? 0) > 50 }`)
/// would silently become the standard library's `filter`, fetching every object and filtering in
/// memory, and with no context it would return `[]` without an error. Run a query explicitly:
///
/// ```swift
/// for employee in try query.all() { … }                 // errors propagate
/// let rich = try query.all().filter { $0.salary > 1 }   // an in-memory filter, said out loud
/// ```
extension Query where M: ManagedObject {
    /// Not available: a closure that returns `Bool` cannot become SQL.
    ///
    /// Write the condition with proxies (`$0.department == nil`, `$0.salary > 50_000`), as a format
    /// string (`filter("salary > %@", 50_000)`), or filter fetched results explicitly:
    /// `try query.all().filter { … }`.
    @available(
        *, unavailable,
        message:
            "a Bool closure cannot become SQL; use proxies ($0.department == nil, $0.salary > 50_000), a format string, or filter fetched results with try query.all().filter { … }"
    )
    public func filter(_ isIncluded: (M) throws -> Bool) throws -> [R] {
        try all().filter { result in try (result as? M).map(isIncluded) ?? false }
    }
}
