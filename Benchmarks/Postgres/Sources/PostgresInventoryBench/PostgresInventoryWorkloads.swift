/// Who runs a workload: one column of the summary line.
public enum PostgresContenderKind: String, CaseIterable, Sendable {
    /// CDQI's contexts over the PostgreSQL store (``OursWorkloads``).
    case ours
    /// CDQIPostgres's `PostgresConnection` used directly: the driver "ours" will sit on.
    case driver = "cdqi driver"
    /// libpq's C API by hand.
    case libpq
    /// vapor/postgres-nio by hand: named prepared statements, rows read through the row callback.
    case postgresNIO = "postgres-nio"
    /// vapor/fluent-kit's models over fluent-postgres-driver.
    case fluent = "Fluent"

    /// The two raw drivers: the faster of them is each line's floor.
    public var isRaw: Bool { self == .libpq || self == .postgresNIO }
}

/// W1, W2, W3, W4 and W7 written against one way of reaching PostgreSQL, over the tables of a
/// ``PostgresBenchDatabase`` (Core Data's layout of the Inventory model, made by CDQIPostgres's
/// `PostgresStoreLayout`): the insert schema (categories only, emptied before each W1 run) and the read
/// schema (the populated one).
///
/// Each method is one timed run and returns what it read, in its own types (``ItemRows``): the runner
/// works out their ``ItemChecksum`` after the clock stops and compares it with the generator's figure. Adding "ours" is one more conformer: its methods do the same work
/// through a context (`context.insert`, `context.fetch`, the typed query's `first()`, `count(for:)`,
/// a fetch, typed setters and `save()`).
public protocol PostgresInventoryWorkloads: AnyObject, Sendable {
    /// The column this implementation fills.
    var kind: PostgresContenderKind { get }

    /// W1: items `0..<count` of ``InventoryData`` into the insert schema's `ZITEM` in one transaction, one
    /// INSERT per item, their keys taken from `Z_PRIMARYKEY` as Core Data takes them. Returns the count (the rows are read back and checked after the run).
    func insert(count: Int) async throws -> any ItemRows

    /// W2: every item of the read schema into Swift values. Returns their checksum.
    func fetchAll() async throws -> any ItemRows

    /// W3: each code looked up by the indexed `ZCODE`, one query each. Returns the found items' checksum.
    func lookups(codes: [String]) async throws -> any ItemRows

    /// W4: `COUNT` of the items with `low <= code < high`, one query per range. Returns the total.
    func counts(ranges: [(String, String)]) async throws -> any ItemRows

    /// W7: reads the items whose code is below `limitCode`, then in one transaction writes each one's
    /// quantity + 1 and version (`Z_OPT`) + 1. Returns the checksum of the items as read.
    func update(below limitCode: String) async throws -> any ItemRows

    /// Closes connections and stops threads.
    func shutdown() async throws
}
