/// A store that can detect writes made to it by other processes or coordinators (see
/// ``ManagedObjectContext/refreshIfStoreChanged()``): an optional capability of a ``PersistentStore``
/// (the SQLite store has it; a store without it answers ``StoreError/unsupported(path:operation:)``).
package protocol ExternalWriteDetecting: PersistentStore {
    /// Runs `body` with the probe of the store's writer, serialized with every write; with `waiting`
    /// false, returns `nil` without running it when a write holds the writer now.
    func withWriteProbe<T>(waiting: Bool, _ body: (any ExternalWriteProbe) throws -> T) throws -> T?
    /// The versions (`Z_OPT`) of the rows `keys` of `table` as committed now (rows that are gone have
    /// none), read beside saves.
    func committedVersions(table: String, keys: [Int64]) throws -> [Int64: Int64]
}
