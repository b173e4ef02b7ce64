import CDQIPredicate

extension ManagedObjectContext {
    /// A dictionary fetch through this context's coordinator: one dictionary per row (or per group),
    /// keyed by the names of the fetched properties, a NULL value without a key (see
    /// `SQLiteStore.fetchDictionaries(_:)` in `CDQISQLite`).
    ///
    /// Like Core Data's dictionary fetches, it reads the **saved** data only: objects inserted, changed
    /// or deleted in this context and not yet saved are not reflected in the results. Save first when
    /// they must be.
    ///
    /// - Throws: ``PredicateSQLError`` for a request the SQL compiler does not accept (an unknown key
    ///   path, a key path selected but not grouped, …), ``SQLiteError`` from the store.
    public func fetchDictionaries(_ request: FetchRequest) throws -> [[String: StoredValue]] {
        processPendingMerges()
        return try coordinator.store.fetchDictionaries(request)
    }
}
