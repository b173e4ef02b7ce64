import CDQIPredicate
import CDQIStore

/// Turns one row of a dictionary fetch (keyed by the fetched properties' names, NULL values absent)
/// into a typed result: the tuple a typed `select` promised.
struct QueryRowDecoder<Row> {
    let decode: (_ row: [String: StoredValue], _ context: ManagedObjectContext) throws(QueryError) -> Row
}
