import CDQIObjects
import CDQIPredicate

extension SQLiteStore {
    /// The objects matching a request, in order, as references to their rows.
    ///
    /// The predicate and the sort keys are compiled to one SELECT with every value bound; a predicate
    /// the SQL compiler does not accept fails before anything runs.
    public func fetchObjectReferences(_ request: FetchRequest) throws -> [ObjectReference] {
        let statement = try prepare(request, shape: .objectIDs)
        defer { statement.rewind() }
        var references: [ObjectReference] = []
        while try statement.step() {
            let number = Int(statement.int64(0))
            guard statement.holdsInteger(0), let name = schema.entity(number: number)?.name else {
                throw StoreError.unknownEntityRow(statement, path: url?.path ?? ":memory:")
            }
            references.append(
                ObjectReference(
                    entityName: name, storeIdentifier: metadata.uuid, identity: .primaryKey(statement.int64(1))))
        }
        return references
    }

    /// The statement for fetch SQL; SQLite's refusal of its size is the user's request's fault.
    private func prepareStatement(_ sql: String) throws -> SQLiteStatement {
        let error: SQLiteError
        do {
            return try connection.prepare(sql)
        } catch let caught {
            error = caught
        }
        guard Self.isTooLarge(error) else { throw error }
        throw PredicateSQLError.unsupported(
            "the request is too large for SQLite (\(error.message)); use fewer terms, for example 'key IN {…}' "
                + "instead of a chain of comparisons")
    }

    /// Whether SQLite refused a statement for its size (a predicate of thousands of terms): the user's
    /// request, not the store, is at fault.
    private static func isTooLarge(_ error: SQLiteError) -> Bool {
        error.code == 1
            && ["Expression tree is too large", "too many terms", "too many SQL variables", "too many arguments", "parser stack overflow"]
                .contains { error.message.contains($0) }
    }

    /// Runs a request selecting whole rows (`columns` of the fetched table, aliased `t0`, starting with
    /// `t0.Z_ENT, t0.Z_PK`) and hands each result row to `body`.
    ///
    /// A request with a fetch limit stops stepping at its limit: the SQL's `LIMIT` is that limit, so the
    /// next step could only report the end, and `rewind()` ends the statement all the same (a `first()`
    /// steps once, not twice).
    func forEachRow(_ request: FetchRequest, columns: String, _ body: (SQLiteStatement) throws -> Void) throws {
        let statement = try prepare(request, shape: .rows(columns: columns))
        defer { statement.rewind() }
        var left = request.fetchLimit > 0 ? request.fetchLimit : Int.max
        while left > 0, try statement.step() {
            try body(statement)
            left -= 1
        }
    }

    /// The number of objects matching a request: as many as the fetch would return, its window included.
    public func count(_ request: FetchRequest) throws -> Int {
        let statement = try prepare(request, shape: .count)
        defer { statement.rewind() }
        guard try statement.step() else { return 0 }
        return Int(statement.int64(0))
    }

    /// The SQL and bindings a request compiles to, for logging and tests.
    public func sql(for request: FetchRequest) throws -> (sql: String, bindings: [StoredValue]) {
        let (entry, constants) = try compiled(request, shape: .objectIDs)
        return (entry.sql, entry.bindings.map { $0.resolve(constants: constants, request: request) })
    }

    /// The number of fetch shapes compiled and cached so far.
    public var compiledFetchCount: Int { fetchCache.count }

    /// The compilation of a request's shape (from the cache when this shape ran before) and the
    /// request's constants, in slot order.
    private func compiled(
        _ request: FetchRequest, shape: FetchSQLBuilder.Shape
    ) throws -> (CompiledFetchCache.Entry, [StoredValue]) {
        try fetchCache.compiled(request, shape: shape, model: model, schema: schema, storeIdentifier: metadata.uuid, dialect: .sqlite)
    }

    /// The statement of a request's shape with the request's values bound. Every parameter is bound
    /// here, so its users need only rewind it when done
    /// (``SQLiteStatement/rewind()``): clearing the bindings too would cost more than the rest of
    /// finishing a lookup, and SQLite holds copies of bound values, never pointers into ours.
    private func prepare(_ request: FetchRequest, shape: FetchSQLBuilder.Shape) throws -> SQLiteStatement {
        let (entry, constants) = try compiled(request, shape: shape)
        let statement: SQLiteStatement
        if let cached = entry.statement as? SQLiteStatement, !cached.isBusy {
            // Every parameter is bound below, so resetting is enough (the connection's cache would also
            // clear the bindings).
            cached.rewind()
            statement = cached
        } else {
            statement = try prepareStatement(entry.sql)
            if entry.statement == nil { entry.statement = statement }
        }
        for (offset, binding) in entry.bindings.enumerated() {
            try statement.bind(binding.resolve(constants: constants, request: request), at: offset + 1)
        }
        return statement
    }
}

extension SQLiteStore {
    /// A dictionary fetch: one dictionary per row (or per group), keyed by the names of the fetched
    /// properties. A nil value has no key, as in Core Data. Aggregates (`count:` `sum:` `min:` `max:`
    /// `average:`) work over the rows of each group of `propertiesToGroupBy`, and `havingPredicate`
    /// filters the groups.
    public func fetchDictionaries(_ request: FetchRequest) throws -> [[String: StoredValue]] {
        let builder = DictionaryFetchSQLBuilder(model: model, schema: schema, storeIdentifier: metadata.uuid, dialect: .sqlite)
        let (fragment, columns) = try builder.build(request)
        let statement = try connection.prepare(fragment.sql)
        defer { statement.reset() }
        for (offset, binding) in fragment.bindings.enumerated() {
            try statement.bind(binding.resolve(constants: [], request: request), at: offset + 1)
        }
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
