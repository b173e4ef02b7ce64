import CDQIModel
import CDQIObjects

extension PersistentStoreCoordinator {
    /// A coordinator over a PostgreSQL store (see ``PostgresStore``): the same contexts, objects and
    /// queries as over a SQLite file.
    ///
    /// ```swift
    /// let coordinator = try PersistentStoreCoordinator(
    ///     model: model, postgresURL: "postgres://app@localhost/shop?schema=sales")
    /// ```
    /// - Parameter connections: the most connections the store opens at once.
    /// - Throws: ``StoreError`` when the URL is malformed, the server cannot be reached, or the schema
    ///   holds a store written for another model.
    public convenience init(
        model: ManagedObjectModel, postgresURL: String, connections: Int = PostgresStore.defaultConnectionCount
    ) throws(StoreError) {
        let url: PostgresURL
        do {
            url = try PostgresURL(postgresURL)
        } catch {
            throw .server(path: "postgres URL", message: error.description)
        }
        self.init(model: model, store: try PostgresStore(model: model, url: url, connections: connections))
    }

    /// A coordinator over a PostgreSQL store opened already.
    public convenience init(model: ManagedObjectModel, store: PostgresStore) {
        self.init(model: model, store: store, url: nil)
    }
}

extension PersistentContainer {
    /// A container over a PostgreSQL store (see ``PostgresStore``):
    ///
    /// ```swift
    /// let container = try PersistentContainer(model: model, postgresURL: "postgres://app@localhost/shop?schema=sales")
    /// ```
    public convenience init(
        model: ManagedObjectModel, postgresURL: String, connections: Int = PostgresStore.defaultConnectionCount
    ) throws(StoreError) {
        self.init(coordinator: try PersistentStoreCoordinator(model: model, postgresURL: postgresURL, connections: connections))
    }
}

extension PersistentContainer {
    /// A container over a PostgreSQL store for the model `cdqi` generated, with its entity classes
    /// registered: the PostgreSQL twin of `PersistentContainer(model: CompanyModel.self, url:)`.
    ///
    /// ```swift
    /// let container = try PersistentContainer(model: CompanyModel.self, postgresURL: databaseURL)
    /// ```
    public convenience init<Model: GeneratedModel>(
        model: Model.Type, postgresURL: String, connections: Int = PostgresStore.defaultConnectionCount
    ) throws(GeneratedModelError) {
        do {
            try self.init(model: Model.model, postgresURL: postgresURL, connections: connections)
        } catch {
            throw .store(error)
        }
        // The coordinator was made from `Model.model`, so registration cannot find a mismatch.
        try Model.register(in: coordinator)
    }
}
