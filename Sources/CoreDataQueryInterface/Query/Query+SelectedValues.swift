import CDQIPredicate
import CDQIStore

// `array` and `value` given a proxy or aggregate as a value (`array(project.name)`, CDQI's spelling
// with a proxy made up front: `let project = Project.CDQIAttribute()`), and typed by the caller:
// `let names: [String] = try query.array(project.name)`, `let top: NSNumber? = try query.value(e.salary.cdqiMax())`.
extension Query where M: ManagedObject {
    /// The values of one proxy or aggregate, one per result row (per group when grouped), as the
    /// proxy's own type: `array(project.name)` is `[String?]`, a NULL value `nil`.
    ///
    /// - Throws: ``QueryError``.
    public func array<S: QuerySelectable>(
        managedObjectContext: ManagedObjectContext? = nil, _ item: S
    ) throws(QueryError) -> [S.CDQIValue?] {
        try array(managedObjectContext: managedObjectContext) { _ in item }
    }

    /// The values of one proxy, aggregate or key path, one per result row, as the type the caller asks
    /// for: `let names: [String] = try query.array(project.name)`, `[Int]` from an Integer 32
    /// attribute, `[NSNumber]`. A NULL value, or one `T` cannot hold (a string asked for as `Int`, a
    /// number too large), is a ``QueryError/valueMismatch(column:expected:actual:)``; ask for the
    /// proxy's own optional type (`[String?]`) where NULL is expected.
    ///
    /// - Throws: ``QueryError``.
    public func array<T: QueryResultValue>(
        managedObjectContext: ManagedObjectContext? = nil, _ item: some SelectionConvertible
    ) throws(QueryError) -> [T] {
        let selection = item.cdqiSelection
        let context = try resolveContext(managedObjectContext)
        var values: [T] = []
        for value in try storedValues(of: selection, context: context) {
            guard let decoded = try Self.decode(T.self, value, column: selection.name, context: context) else {
                throw .valueMismatch(
                    column: selection.name, expected: "a value of type \(T.self) (ask for [\(T.self)?] where NULL can occur)",
                    actual: "NULL")
            }
            values.append(decoded)
        }
        return values
    }

    /// The value of one proxy or aggregate in the first result row, as the proxy's own type:
    /// `value(e.salary.cdqiMax())` is `Int32?`; `nil` when NULL or when there is no row.
    ///
    /// - Throws: ``QueryError``.
    public func value<S: QuerySelectable>(
        managedObjectContext: ManagedObjectContext? = nil, _ item: S
    ) throws(QueryError) -> S.CDQIValue? {
        try array(managedObjectContext: managedObjectContext, item).first ?? nil
    }

    /// The value of one proxy, aggregate or key path in the first result row, as the type the caller
    /// asks for: `let top: NSNumber? = try query.value(e.salary.cdqiMax())`. `nil` when NULL or when
    /// there is no row; a value `T` cannot hold is a ``QueryError/valueMismatch(column:expected:actual:)``.
    ///
    /// - Throws: ``QueryError``.
    public func value<T: QueryResultValue>(
        managedObjectContext: ManagedObjectContext? = nil, _ item: some SelectionConvertible
    ) throws(QueryError) -> T? {
        let selection = item.cdqiSelection
        let context = try resolveContext(managedObjectContext)
        guard let first = try storedValues(of: selection, context: context).first else { return nil }
        return try Self.decode(T.self, first, column: selection.name, context: context)
    }

    /// The stored values of one selected column, one per row, with the query's filters, grouping, order
    /// and window.
    private func storedValues(of selection: QuerySelection, context: ManagedObjectContext) throws(QueryError) -> [StoredValue] {
        var query: Query<M, [String: Any]> = withResult(.values)
        query.selections = [selection]
        let rows: [[String: StoredValue]]
        do {
            rows = try context.fetchDictionaries(query.request())
        } catch let error as QueryError {
            throw error
        } catch {
            throw .fetchFailed(error)
        }
        return rows.map { $0[selection.storeKey] ?? .null }
    }
}
