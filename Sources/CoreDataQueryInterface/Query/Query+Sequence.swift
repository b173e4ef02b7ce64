import CDQIStore

/// Iterating a query runs it: `for employee in query { … }` is `for employee in try query.all()`
/// without the `try`.
///
/// **On an error** (no context, an unregistered class, a fetch the store refuses), iteration yields
/// nothing and the error is kept by the iterator (``QueryIterator/error``). Loops that must tell "no
/// results" from "failed" should call ``Query/all(managedObjectContext:)`` instead, which throws:
///
/// ```swift
/// for employee in try query.all() { … }   // errors propagate
/// ```
///
/// The query runs once, when the iterator is made, against its bound context. `Sequence` methods
/// (`map`, `first(where:)`, `contains(where:)`, …) work on the results; the query's own `filter`,
/// `order` and `count()` keep their query meaning.
extension Query: Sequence where M: ManagedObject {
    /// Runs the query and returns an iterator over its results.
    public func makeIterator() -> QueryIterator<R> {
        do {
            return QueryIterator(results: try all(), error: nil)
        } catch {
            return QueryIterator(results: [], error: error)
        }
    }
}

/// The results of a query run by iteration, and the error that stopped it, if any.
public struct QueryIterator<Element>: IteratorProtocol {
    private var results: IndexingIterator<[Element]>
    /// Why the query could not run; `nil` when it ran (even with no results).
    public let error: QueryError?

    init(results: [Element], error: QueryError?) {
        self.results = results.makeIterator()
        self.error = error
    }

    /// The next result.
    public mutating func next() -> Element? { results.next() }
}
