import CDQIPredicate

extension SQLiteStore {
    /// The objects matching a request, in order, as references to their rows.
    ///
    /// The predicate and the sort keys are compiled to one SELECT with every value bound; a predicate
    /// the SQL compiler does not accept fails before anything runs.
    public func fetchObjectReferences(_ request: FetchRequest) throws -> [ObjectReference] {
        let statement = try prepare(request, shape: .objectIDs)
        defer { statement.reset() }
        var references: [ObjectReference] = []
        while try statement.step() {
            let number = Int(statement.int64(0))
            let name = schema.entity(number: number)?.name ?? request.entityName
            references.append(ObjectReference(
                entityName: name, storeIdentifier: metadata.uuid, identity: .primaryKey(statement.int64(1))))
        }
        return references
    }

    /// The number of objects matching a request (its limit and offset ignored, as Core Data's count does).
    public func count(_ request: FetchRequest) throws -> Int {
        let statement = try prepare(request, shape: .count)
        defer { statement.reset() }
        guard try statement.step() else { return 0 }
        return Int(statement.int64(0))
    }

    /// The SQL and bindings a request compiles to, for logging and tests.
    public func sql(for request: FetchRequest) throws -> (sql: String, bindings: [StoredValue]) {
        let fragment = try builder.build(request, shape: .objectIDs)
        return (fragment.sql, fragment.bindings)
    }

    private var builder: FetchSQLBuilder {
        FetchSQLBuilder(model: model, schema: schema, storeIdentifier: metadata.uuid)
    }

    private func prepare(_ request: FetchRequest, shape: FetchSQLBuilder.Shape) throws -> SQLiteStatement {
        let fragment = try builder.build(request, shape: shape)
        let statement = try connection.prepare(fragment.sql)
        try statement.bind(fragment.bindings)
        return statement
    }
}

extension SQLiteStore {
    /// A dictionary fetch: one dictionary per row (or per group), keyed by the names of the fetched
    /// properties. A nil value has no key, as in Core Data. Aggregates (`count:` `sum:` `min:` `max:`
    /// `average:`) work over the rows of each group of `propertiesToGroupBy`, and `havingPredicate`
    /// filters the groups.
    public func fetchDictionaries(_ request: FetchRequest) throws -> [[String: StoredValue]] {
        let builder = DictionaryFetchSQLBuilder(model: model, schema: schema, storeIdentifier: metadata.uuid)
        let (fragment, columns) = try builder.build(request)
        let statement = try connection.prepare(fragment.sql)
        defer { statement.reset() }
        try statement.bind(fragment.bindings)
        var rows: [[String: StoredValue]] = []
        while try statement.step() {
            var row: [String: StoredValue] = [:]
            for (index, column) in columns.enumerated() {
                let value = statement.storedValue(index, as: column.type, storeIdentifier: metadata.uuid)
                if !value.isNull { row[column.name] = value }
            }
            rows.append(row)
        }
        return rows
    }
}
