import CDQIPredicate
import CDQIStore

/// Turns one row of a dictionary fetch (keyed by the fetched properties' names, NULL values absent)
/// into a typed result: the tuple a typed `select` promised. `Sendable` (it captures only the selected
/// columns), so a query can be run in another task (``DetachedQuery``).
struct QueryRowDecoder<Row>: Sendable {
    let decode: @Sendable (_ row: [String: StoredValue], _ context: ManagedObjectContext) throws(QueryError) -> Row
}
