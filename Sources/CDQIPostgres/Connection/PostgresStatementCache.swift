/// The names of the statements one connection has prepared, by SQL and parameter types (a statement
/// prepared with other types is another statement on the server).
///
/// Looking a statement up costs no allocation: the SQL is hashed once (or, when the statement is the
/// one run last, only compared with it, which for the same string is a comparison of two words), and
/// the types are compared as the small array of OIDs they are, never joined into a key.
struct PostgresStatementCache {
    /// One prepared statement: its parameter types and its name on the server.
    private struct Entry {
        let types: [UInt32]
        let name: String
    }

    /// Every statement, by SQL: usually one entry, one per set of parameter types the SQL ran with.
    private var entries: [String: [Entry]] = [:]
    /// The statement found or added last, checked first: statements mostly run many times in a row.
    private var last: (sql: String, entry: Entry)?

    /// How many statements are prepared.
    private(set) var count = 0

    /// The name of the statement prepared for `sql` with parameters of `types`, if there is one.
    mutating func name(sql: String, types: [UInt32]) -> String? {
        if let last, last.sql == sql, last.entry.types == types { return last.entry.name }
        guard let entry = entries[sql]?.first(where: { $0.types == types }) else { return nil }
        last = (sql, entry)
        return entry.name
    }

    /// Records that `sql` with parameters of `types` is prepared as `name`.
    mutating func insert(name: String, sql: String, types: [UInt32]) {
        let entry = Entry(types: Array(types), name: name)
        entries[sql, default: []].append(entry)
        last = (sql, entry)
        count += 1
    }

    /// Forgets every statement (the connection that prepared them is closed).
    mutating func removeAll() {
        entries.removeAll()
        last = nil
        count = 0
    }
}
