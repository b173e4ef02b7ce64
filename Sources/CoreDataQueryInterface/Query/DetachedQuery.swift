import CDQIPredicate
import CDQIStore

/// A query without its bound context: every part that says what to fetch and how to decode it, all
/// `Sendable`, so that the query can be rebuilt and run on a context in another task (the async forms
/// of ``Query``). A ``Query`` itself is not `Sendable`, because it may hold a context.
struct DetachedQuery<M: Entity, R>: Sendable {
    let predicates: [PredicateNode]
    let sortDescriptors: [FetchSortDescriptor]
    let limitCount: Int
    let offsetCount: Int
    let resultKind: QueryResultKind
    let selections: [QuerySelection]
    let groupings: [String]
    let havingPredicates: [PredicateNode]
    let isDistinct: Bool
    let rowDecoder: QueryRowDecoder<R>?

    /// Everything of `query` but its bound context.
    init(_ query: Query<M, R>) {
        predicates = query.predicates
        sortDescriptors = query.sortDescriptors
        limitCount = query.limitCount
        offsetCount = query.offsetCount
        resultKind = query.resultKind
        selections = query.selections
        groupings = query.groupings
        havingPredicates = query.havingPredicates
        isDistinct = query.isDistinct
        rowDecoder = query.rowDecoder
    }

    /// The query again, bound to no context.
    var query: Query<M, R> {
        var query = Query<M, R>()
        query.predicates = predicates
        query.sortDescriptors = sortDescriptors
        query.limitCount = limitCount
        query.offsetCount = offsetCount
        query.resultKind = resultKind
        query.selections = selections
        query.groupings = groupings
        query.havingPredicates = havingPredicates
        query.isDistinct = isDistinct
        query.rowDecoder = rowDecoder
        return query
    }

    /// Runs `body` with the query on a new context of `container`'s, in a task of its own (see
    /// ``PersistentContainer/performBackgroundTask(_:)``), and returns its result.
    nonisolated(nonsending) func run<T: Sendable>(
        in container: PersistentContainer,
        _ body: @escaping @Sendable (Query<M, R>, ManagedObjectContext) throws(QueryError) -> T
    ) async throws(QueryError) -> T {
        let detached = self
        do {
            return try await container.performBackgroundTask { context in try body(detached.query, context) }
        } catch let error as QueryError {
            throw error
        } catch {
            throw .fetchFailed(error)
        }
    }
}
