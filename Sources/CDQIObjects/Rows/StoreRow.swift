import CDQIModel
import CDQIPredicate

/// The current row of a store's result, as the object graph reads it: whatever the engine, a row is
/// read by position, in the store's representation of Core Data's values (keys and entity numbers as
/// integers, dates as seconds since 2001-01-01, booleans as 0 and 1).
///
/// The code that turns rows into objects (``RowPlan``, ``RowObjectReader``) is generic over the row,
/// so that each store's rows are read without a dynamic call per value: the SQLite store passes its
/// statements, the PostgreSQL store rows read in place from its results (``CellRow``). The protocol and the
/// reading code are usable from inline code, so that a store in another module gets that code
/// specialized for its rows (an inlinable function over types that are not is left generic there).
@usableFromInline package protocol StoreRow {
    /// Column `index` read as a value of an attribute of `type`, or `.null`.
    func attributeValue(_ index: Int, type: AttributeType) -> StoredValue
    /// Column `index` as an integer, or `nil` when it is NULL.
    func integer(_ index: Int) -> Int64?
    /// Column `index` as an integer, 0 for NULL (keys, entity numbers and versions, never NULL in a
    /// store: one engine call where ``integer(_:)`` makes two).
    func int64(_ index: Int) -> Int64
    /// Whether column `index` holds an integer (not NULL, text, a real or bytes).
    func holdsInteger(_ index: Int) -> Bool
    /// Column `index` described for a message: `999`, `NULL`, `'x' (text)`.
    func describeValue(_ index: Int) -> String
    /// The table column `index` was read from, when the engine knows it.
    func tableName(ofColumn index: Int) -> String?
}
