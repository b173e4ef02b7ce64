import CDQIObjects

extension PersistentStoreCoordinator {
    /// The store when it is a SQLite store (file or memory), or `nil`.
    package var sqlite: SQLitePersistentStore? { store as? SQLitePersistentStore }

    /// The SQLite store, or ``StoreError/unsupported(path:operation:)`` naming `operation` for a store
    /// of another kind.
    package func sqliteStore(for operation: String) throws(StoreError) -> SQLitePersistentStore {
        try capability(SQLitePersistentStore.self, for: operation)
    }

    /// Runs `body` with the SQLite writer, serialized with every other use of it (see
    /// ``SQLitePersistentStore/withWriter(_:)``); throws ``StoreError/unsupported(path:operation:)``
    /// for a store of another kind.
    package func withStore<T>(_ body: (SQLiteStore) throws -> T) throws -> T {
        try sqliteStore(for: "this SQLite operation").withWriter(body)
    }

    /// Runs `body` with a SQLite read connection (see ``SQLitePersistentStore/withReader(_:)``).
    package func withReader<T>(_ body: (SQLiteStore) throws -> T) throws -> T {
        try sqliteStore(for: "this SQLite operation").withReader(body)
    }
}
