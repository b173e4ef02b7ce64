import Logging

extension PersistentStoreCoordinator {
    /// Logs the SQL the store runs to `logger`, or stops with `nil`: the writer's statements, and those of
    /// every read connection of the pool. Off by default, and free when off (no hook is registered with SQLite).
    ///
    /// - At `.debug`: each statement when it finishes, with its bound values written into the SQL and
    ///   its duration (`duration_ms` metadata).
    /// - At `.trace`: also the number of rows it returned (`rows` metadata).
    /// - Above `.debug`: nothing is logged, and tracing is off.
    ///
    /// ```swift
    /// var logger = Logger(label: "sql")
    /// logger.logLevel = .debug
    /// container.coordinator.logSQL(to: logger)
    /// ```
    public func logSQL(to logger: Logger?) {
        (store as? any SQLLogging)?.logSQL(to: logger)
    }
}
