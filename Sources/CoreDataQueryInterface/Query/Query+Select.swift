import CDQIPredicate
import CDQIStore

// Selecting columns, grouping, HAVING and DISTINCT.
//
// Dictionary results come from `select` given strings, proxies, aggregates or an array of them; typed
// results from `select` given a closure that returns one proxy or aggregate, or a tuple of them.
// Dictionary and typed queries read the store's saved data only, as Core Data's dictionary fetches
// do: a context's unsaved changes are not part of their results.
extension Query {
    /// Selects columns for dictionary results: key paths as strings, proxies, aggregates.
    ///
    /// ```swift
    /// Query.from(Employee.self).select("lastName", "department.name")
    /// // [["lastName": "Lee", "departmentName": "Engineering"], …]
    /// ```
    ///
    /// Each dictionary is keyed by the selections' names (``QuerySelection``); a NULL value has no key,
    /// as in Core Data. Values are Swift values: `Int` for integers, `Double`, `Decimal`, `String`, `Bool`,
    /// `Date`, `Data`, `UUID`, `URL`, and ``ManagedObjectID`` for to-one relationships. Successive
    /// `select`s on a dictionary query append; ``reselect()`` clears. With no selection, every attribute
    /// is fetched.
    public func select(_ items: any SelectionConvertible...) -> Query<M, [String: Any]> {
        select(items)
    }

    /// Selects the columns in `items` for dictionary results; see `select(_:)`.
    public func select(_ items: [any SelectionConvertible]) -> Query<M, [String: Any]> {
        var query: Query<M, [String: Any]> = withResult(.dictionaries)
        if resultKind != .dictionaries { query.selections = [] }
        query.selections += items.map(\.cdqiSelection)
        return query
    }

    /// Selects the proxies and aggregates `build` returns, for dictionary results:
    /// `select { [$0.department.name, $0.salary.cdqiMax()] }` gives `departmentName` and `salaryMax`.
    public func select(_ build: (M.CDQIAttribute) -> [any SelectionConvertible]) -> Query<M, [String: Any]> {
        select(build(M.CDQIAttribute()))
    }

    /// Selects what each closure returns, in order, for dictionary results, as CDQI writes it:
    /// `select({ $0.department.name }, { $0.salary.cdqiMax() })` gives `departmentName` and `salaryMax`.
    public func select(
        _ first: (M.CDQIAttribute) -> any SelectionConvertible,
        _ second: (M.CDQIAttribute) -> any SelectionConvertible,
        _ more: ((M.CDQIAttribute) -> any SelectionConvertible)...
    ) -> Query<M, [String: Any]> {
        let proxy = M.CDQIAttribute()
        return select([first(proxy), second(proxy)] + more.map { $0(proxy) })
    }

    /// Selects one proxy or aggregate, or a tuple of them, for **typed** results: each result is the
    /// tuple of the columns' Swift values, decoded without casts.
    ///
    /// ```swift
    /// let rows: [(String?, Int32?)] = try context.from(Employee.self)
    ///     .select { ($0.department.name, $0.salary.cdqiMax()) }
    ///     .groupBy { $0.department.name }
    ///     .all()
    /// ```
    ///
    /// Every column is optional because SQL can yield NULL for any of them (see ``QuerySelectable``).
    /// A value the column's Swift type cannot hold is a ``QueryError/valueMismatch(column:expected:actual:)``.
    /// The selection replaces any earlier one.
    public func select<each T: QuerySelectable>(
        _ build: (M.CDQIAttribute) -> (repeat each T)
    ) -> Query<M, (repeat (each T).CDQIValue?)> {
        let items = build(M.CDQIAttribute())
        var selections: [QuerySelection] = []
        for item in repeat each items { selections.append(item.cdqiSelection) }
        let columns = selections
        let decoder = QueryRowDecoder<(repeat (each T).CDQIValue?)> { row, context throws(QueryError) in
            var index = 0
            func next<V: QueryResultValue>(_ type: V.Type) throws(QueryError) -> V? {
                let selection = columns[index]
                index += 1
                return try Self.decode(V.self, row[selection.storeKey] ?? .null, column: selection.name, context: context)
            }
            return (repeat try next((each T).CDQIValue.self))
        }
        var query: Query<M, (repeat (each T).CDQIValue?)> = withResult(.values, decoder: decoder)
        query.selections = selections
        return query
    }

    /// Decodes one non-NULL value into `V`, or `nil` for NULL.
    static func decode<V: QueryResultValue>(
        _ type: V.Type, _ value: StoredValue, column: String, context: ManagedObjectContext
    ) throws(QueryError) -> V? {
        if value.isNull { return nil }
        guard let decoded = V.cdqiDecode(value, context: context) else {
            throw .valueMismatch(
                column: column, expected: "a value of type \(V.self)", actual: QueryValueConversion.describe(value))
        }
        return decoded
    }

    /// Clears the selection: a dictionary query of every attribute (as Core Data fetches dictionaries
    /// when no properties are named).
    public func reselect() -> Query<M, [String: Any]> {
        var query: Query<M, [String: Any]> = withResult(.dictionaries)
        query.selections = []
        return query
    }

    /// Makes the query a dictionary query, keeping its selection (of a typed query, for example).
    public func dictionaries() -> Query<M, [String: Any]> {
        withResult(.dictionaries)
    }

    // MARK: Grouping

    /// Groups the rows of a dictionary or typed query by key paths; successive calls append.
    ///
    /// Every selected key path must be grouped; aggregates then work over each group.
    public func groupBy(_ keyPaths: String...) -> Query {
        groupBy(keyPaths: keyPaths)
    }

    /// Groups by the proxies given.
    public func groupBy(_ proxies: any KeyPathExpressionConvertible...) -> Query {
        groupBy(keyPaths: proxies.map(\.cdqiKeyPath))
    }

    /// Groups by the proxy `build` returns: `groupBy { $0.department.name }`; `groupBy { $0 }` groups by
    /// the object itself (one group per object, selected as `$0`).
    public func groupBy(_ build: (M.CDQIAttribute) -> any KeyPathExpressionConvertible) -> Query {
        groupBy(keyPaths: [build(M.CDQIAttribute()).cdqiKeyPath])
    }

    /// Groups by the proxies `build` returns: `groupBy { [$0.department.name, $0.lastName] }`.
    public func groupBy(_ build: (M.CDQIAttribute) -> [any KeyPathExpressionConvertible]) -> Query {
        groupBy(keyPaths: build(M.CDQIAttribute()).map(\.cdqiKeyPath))
    }

    private func groupBy(keyPaths: [String]) -> Query {
        var copy = self
        copy.groupings += keyPaths
        return copy
    }

    /// Removes the grouping, and the HAVING conditions that only make sense with it.
    public func regroup() -> Query {
        var copy = self
        copy.groupings = []
        copy.havingPredicates = []
        return copy
    }

    // MARK: HAVING

    /// Adds a condition on groups; successive conditions AND together. It may use aggregate functions
    /// (`max:(salary) > 100`) or name a selected expression (`$salaryMax > 100`).
    public func having(_ predicate: PredicateNode) -> Query {
        var copy = self
        copy.havingPredicates.append(predicate)
        return copy
    }

    /// Adds a condition on groups written in NSPredicate's format language:
    /// `having("count:(salary) >= %@", 2)`, `having("$salarySum < 300")`.
    ///
    /// - Throws: ``PredicateParseError`` naming the offset of the problem.
    public func having(_ format: String, _ arguments: Any?...) throws(PredicateParseError) -> Query {
        having(try PredicateNode(format: format, argumentArray: arguments))
    }

    /// Adds a condition on groups built from proxies: `having { $0.salary.cdqiMax() > 150 }`.
    ///
    /// An aggregate in the closure stands for the aggregate over the group's rows (`max:(salary)`),
    /// not over a to-many relationship of each row, so key paths with a collection operator
    /// (`salary.@max`, `employees.@avg.salary`) become the matching function over the key path.
    public func having(_ build: (M.CDQIAttribute) -> PredicateNode) -> Query {
        having(GroupAggregateRewriter.rewrite(build(M.CDQIAttribute())))
    }

    // MARK: DISTINCT

    /// Drops duplicate rows from a dictionary or typed query (`SELECT DISTINCT`).
    public func distinct(_ isDistinct: Bool = true) -> Query {
        var copy = self
        copy.isDistinct = isDistinct
        return copy
    }
}
