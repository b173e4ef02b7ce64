import Logging

/// A store that can log the SQL it runs (see ``PersistentStoreCoordinator/logSQL(to:)``): an optional
/// capability of a ``PersistentStore``.
package protocol SQLLogging: PersistentStore {
    /// Logs every statement of every connection of the store to `logger`, or stops with `nil`.
    func logSQL(to logger: Logger?)
}
