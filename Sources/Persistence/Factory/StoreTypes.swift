/// The SQLite store type (Core Data's `NSSQLiteStoreType`): the default.
public let NSSQLiteStoreType = "SQLite"
/// The in-memory store type (Core Data's `NSInMemoryStoreType`).
public let NSInMemoryStoreType = "InMemory"
/// Core Data's binary store type: not supported here (the factory reports
/// ``PersistenceError/unsupportedStoreType(_:)``).
public let NSBinaryStoreType = "Binary"
