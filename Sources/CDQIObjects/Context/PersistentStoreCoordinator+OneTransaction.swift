extension PersistentStoreCoordinator {
    /// Runs `body` inside one write transaction of the store (`BEGIN IMMEDIATE` … `COMMIT`): every save
    /// `body` makes is a savepoint in it, so that all of them are written when `body` returns, and none
    /// when it throws or the commit fails (the transaction is rolled back). Contexts saved meanwhile
    /// consider their objects saved even if the transaction is then rolled back: discard them.
    ///
    /// The write lock is held until the end, and other connections see nothing of it before the commit:
    /// for a coordinator whose writes are all `body`'s (an import building a store in batches).
    /// Throws ``StoreError/unsupported(path:operation:)`` for a store without ``SingleTransactionWriting``.
    package func inOneTransaction<T>(_ body: () throws -> T) throws -> T {
        try capability((any SingleTransactionWriting).self, for: "this SQLite operation").inOneTransaction(body)
    }
}
