/// A store that can hold one write transaction open across many saves (see
/// ``PersistentStoreCoordinator/inOneTransaction(_:)``): an optional capability of a ``PersistentStore``.
package protocol SingleTransactionWriting: PersistentStore {
    /// Runs `body` inside one write transaction: the saves it makes are written when it returns, none
    /// when it throws or the commit fails.
    func inOneTransaction<T>(_ body: () throws -> T) throws -> T
}
