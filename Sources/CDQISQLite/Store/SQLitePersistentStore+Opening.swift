import CDQIModel
import CDQIObjects
import Foundation

// The initializers that open a SQLite store file (or an in-memory store) under a coordinator or a
// container: the SQLite twins of `CDQIPostgres`'s `postgresURL:` initializers.

extension PersistentStoreCoordinator {
    /// Opens (or creates) the store at `url`, or an in-memory store when `url` is `nil`.
    ///
    /// - Parameter readOnly: open an existing store read-only, changing nothing about its files (see
    ///   ``SQLiteStore/init(model:url:readOnly:keepsJournalMode:)``); saves then fail.
    /// - Parameter readerCount: the most read-only connections a store file gets (opened when first
    ///   needed); 0 makes every read share the writer connection, one at a time. Ignored for an
    ///   in-memory store, which always has one connection, and for a file not in WAL mode
    ///   (``readerCount`` is then 0).
    /// - Parameter keepsJournalMode: leave an existing store file in its journal mode instead of
    ///   switching it to WAL (see ``SQLiteStore/init(model:url:readOnly:keepsJournalMode:)``); a
    ///   rollback-journal store then has no readers.
    public convenience init(
        model: ManagedObjectModel, url: URL?, readOnly: Bool = false,
        readerCount: Int = PersistentStoreCoordinator.defaultReaderCount, keepsJournalMode: Bool = false
    ) throws(StoreError) {
        let store = try SQLitePersistentStore(
            model: model, url: url, readOnly: readOnly, readerCount: readerCount, keepsJournalMode: keepsJournalMode)
        self.init(model: model, store: store, url: url)
    }
}

extension PersistentContainer {
    /// Opens (or creates) the store at `url`, or an in-memory store when `url` is `nil`.
    ///
    /// - Parameter readerCount: the most read-only connections a store file gets, so that reads of
    ///   different contexts run in parallel (see ``PersistentStoreCoordinator``); 0 for none.
    /// - Parameter keepsJournalMode: leave an existing store file in its journal mode instead of
    ///   switching it to write-ahead logging as Core Data does (a rollback-journal store then has no
    ///   parallel readers).
    public convenience init(
        model: ManagedObjectModel, url: URL?, readerCount: Int = PersistentStoreCoordinator.defaultReaderCount,
        keepsJournalMode: Bool = false
    ) throws(StoreError) {
        self.init(
            coordinator: try PersistentStoreCoordinator(
                model: model, url: url, readerCount: readerCount, keepsJournalMode: keepsJournalMode))
    }
}

extension PersistentContainer {
    /// Opens (or creates) the store at `url` (in memory when `nil`) for a generated model, with every
    /// entity class registered, so that fetches return instances of the generated classes.
    /// - Throws: ``GeneratedModelError/store(_:)`` when the store cannot be opened (for example, it
    ///   was written for another model).
    public convenience init<Model: GeneratedModel>(model: Model.Type, url: URL?) throws(GeneratedModelError) {
        do {
            try self.init(model: Model.model, url: url)
        } catch {
            throw .store(error)
        }
        // The coordinator was made from `Model.model`, so registration cannot find a mismatch.
        try Model.register(in: coordinator)
    }
}
