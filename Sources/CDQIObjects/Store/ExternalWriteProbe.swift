/// A connection that tells commits of other connections (other processes, other coordinators) apart
/// from its own: what ``ExternalWriteTracker`` reads, inside the store's write lock. The SQLite store's
/// writer connection is one (`PRAGMA data_version`).
package protocol ExternalWriteProbe {
    /// A number that changes with every commit of another connection, never with this connection's own.
    func dataVersion() throws -> Int64
    /// The largest primary key (`Z_PK`) of `table`, 0 when it is empty.
    func largestKey(of table: String) throws -> Int64
    /// The primary keys and entity numbers (`Z_PK, Z_ENT`) of the rows of `table` whose key is above
    /// `key`, by key.
    func rows(of table: String, above key: Int64) throws -> [(key: Int64, entityNumber: Int64)]
}
