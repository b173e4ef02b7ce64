import CLibPQ

/// One column of a result, named only when an error needs its name: reading a value carries this
/// (a pointer and an index, nothing to retain or allocate) rather than the name itself.
struct PostgresResultColumn {
    /// libpq's `PGresult` the column belongs to.
    let result: OpaquePointer
    /// The column's position (0-based).
    let index: Int32

    /// The column's name as the statement gave it, or `#index` when libpq has none.
    var name: String {
        PQfname(result, index).map { String(cString: $0) } ?? "#\(index)"
    }
}
