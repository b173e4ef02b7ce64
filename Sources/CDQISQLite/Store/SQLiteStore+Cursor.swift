import CDQIObjects
import CDQIPredicate

extension SQLiteStore {
    /// The statement that selects a request's whole rows (`columns` of the fetched table, aliased `t0`,
    /// starting with `t0.Z_ENT, t0.Z_PK`) with its bound values, for a reader that runs it on a
    /// connection of its own (``FetchCursor``).
    func rowsSQL(for request: FetchRequest, columns: String) throws -> (sql: String, bindings: [StoredValue]) {
        let builder = FetchSQLBuilder(model: model, schema: schema, storeIdentifier: metadata.uuid, dialect: .sqlite)
        let fragment = try builder.build(request, shape: .rows(columns: columns))
        return (fragment.sql, fragment.bindings.map { $0.resolve(constants: [], request: request) })
    }
}
