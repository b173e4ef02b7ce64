import CDQIModel
import CDQIPredicate
import Foundation

/// What contexts ask of the storage under their coordinator: the SQLite store (a file, or memory) and
/// the PostgreSQL store each implement it, so that contexts, objects, faulting and saving are the same
/// code over either.
///
/// The protocol speaks rows, not connections: a read hands each result row to a ``RowObjectReader``
/// (rows are decoded by code generic over ``StoreRow``, so each store's rows are read without a dynamic
/// call per value), and a save hands the store a ``SaveTransaction`` body: keys, row inserts, updates
/// expecting a row version, deletes and join rows. The SQL for each store comes from `CDQISQL` in the
/// store's ``SQLDialect``.
///
/// A store is used from any thread: each call reads one committed state of the store (a fetch never
/// sees part of a save), and writes are serialized by ``write(_:)``.
package protocol PersistentStore: AnyObject, Sendable {
    /// The store's metadata (its UUID is the host part of object-ID URIs).
    var metadata: StoreMetadata { get }
    /// Where the model's entities live.
    var schema: StoreSchema { get }
    /// The SQL the store speaks.
    var dialect: SQLDialect { get }
    /// Where the store is, for messages: a file path, `:memory:`, or a database URL without its password.
    var location: String { get }

    // MARK: Reading

    /// The objects a request matches, in order, as references to their rows.
    func fetchObjectReferences(_ request: FetchRequest) throws -> [ObjectReference]
    /// The number of objects a request matches, its window included.
    func count(_ request: FetchRequest) throws -> Int
    /// A dictionary fetch (see ``ManagedObjectContext/fetchDictionaries(_:)``).
    func fetchDictionaries(_ request: FetchRequest) throws -> [[String: StoredValue]]
    /// How the store would run a request.
    func explain(_ request: FetchRequest) throws -> FetchExplanation
    /// Runs a request reading whole rows of `layout`'s table (``EntityLayout/tableColumns``) and hands
    /// each row to `reader`, appending its object to `objects`.
    func readObjects(
        _ request: FetchRequest, layout: EntityLayout, reader: inout RowObjectReader, into objects: inout [ManagedObject]
    ) throws
    /// Runs a keyed whole-row read (``KeyedRowQuery``) with `keys` bound in order, hands each row to
    /// `reader`, and calls `each` with the row's object and the integer in column `query.ownerPosition`
    /// (the owner's key of a to-many member), if the query has one.
    func readObjects(
        _ query: KeyedRowQuery, keys: [Int64], reader: inout RowObjectReader, into objects: inout [ManagedObject],
        _ each: (ManagedObject, Int64?) -> Void
    ) throws
    /// The entity numbers and keys of a keyed query's rows (its first two columns, `Z_ENT, Z_PK`).
    func readReferences(_ query: KeyedRowQuery, keys: [Int64]) throws -> [(entityNumber: Int, key: Int64)]
    /// The row of `layout`'s table with primary key `key`, or `nil`.
    func readRow(of layout: EntityLayout, key: Int64) throws -> StoredRow?

    // MARK: Writing

    /// Runs `body` in one write transaction, serialized with every other write to the store, and
    /// commits it when `body` returns (rolls it back when it throws).
    func write<T>(_ body: (any SaveTransaction) throws -> T) throws -> T

    /// Runs a batch statement (built by `BatchStatementBuilder` in the store's dialect) in one write
    /// transaction, a delete with its delete rules applied (`deleteRules`), and returns the rows it wrote.
    /// A store that cannot apply some delete rule in SQL throws ``BatchError/unsupported(_:)`` and writes nothing.
    func runBatch(_ statement: SQLFragment, request: FetchRequest?, deleteRules: BatchDeleteRules?) throws -> BatchWriter.Written
}

/// A whole-row read by keys: the SQL text in a store's dialect (parameters are the keys, in order),
/// and where the owner's key of each row is, for to-many members.
package struct KeyedRowQuery {
    package var sql: String
    package var ownerPosition: Int?

    package init(sql: String, ownerPosition: Int? = nil) {
        self.sql = sql
        self.ownerPosition = ownerPosition
    }
}

/// What a save writes, inside the store's write transaction (see ``PersistentStore/write(_:)``).
/// Every call names rows by table and primary key; values are bound, never spliced into SQL.
package protocol SaveTransaction: AnyObject {
    /// Takes `count` new primary keys for the hierarchy whose root entity is `root`, named `rootName`
    /// in messages.
    func allocateKeys(root: Int, rootName: String, tableName: String, count: Int) throws -> ClosedRange<Int64>
    /// Inserts the row of a new object with key `key` at version 1 (to-one targets by ``SaveWriter/reference(to:)``).
    func insertRow(of object: ManagedObject, key: Int64) throws
    /// Writes `changes` (attribute values from `attributeValues`) to the row `key` of `layout`'s table
    /// and sets its version to `expected + 1`, only if the row is at version `expected`; `false` when it
    /// is not (changed or deleted elsewhere).
    func updateRow(
        of layout: EntityLayout, key: Int64, changes: RowChanges, attributeValues: [StoredValue], expected: Int64
    ) throws -> Bool
    /// Deletes the row `key` of `layout`'s table (only at version `expected`, when given) and its
    /// join-table rows; `false` when a version was expected and the row is not at it (or gone).
    func deleteRow(of layout: EntityLayout, key: Int64, expected: Int64?) throws -> Bool
    /// The versions (`Z_OPT`) of the rows `keys` of `table`; rows that are gone have none.
    func storedVersions(table: String, keys: [Int64]) throws -> [Int64: Int64]
    /// The row `key` of `layout`'s table, or `nil`.
    func readRow(of layout: EntityLayout, key: Int64) throws -> StoredRow?
    /// The `Z_ENT, Z_PK` of rows of `table` (entity numbers `numbers`) whose `columns` equal `values`.
    func rowsMatching(
        table: String, numbers: ClosedRange<Int>, columns: [String], values: [StoredValue]
    ) throws -> [(
        entityNumber: Int, key: Int64
    )]
    /// Inserts a join-table row (nothing when it is there already).
    func insertJoinRow(_ table: JoinTable, source: Int64, destination: Int64) throws
    /// Deletes a join-table row.
    func deleteJoinRow(_ table: JoinTable, source: Int64, destination: Int64) throws
    /// Sets `column` of the rows of `table` where `keyColumns` equal `keys`.
    func setOrderKey(table: String, column: String, value: Int64, keyColumns: [String], keys: [Int64]) throws
}
