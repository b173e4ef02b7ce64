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
