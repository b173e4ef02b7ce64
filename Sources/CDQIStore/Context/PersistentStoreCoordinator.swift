import CDQIModel
import Foundation
import Synchronization

/// Owns a model and its SQLite store, and serializes every use of the store's connection: contexts on
/// any thread or task share one coordinator.
///
/// It is `Sendable`: its state is immutable except the store connection, only touched while holding
/// `lock`, and the class registry, only touched while holding `registryLock` (a separate lock, so that
/// code running with the store may still look up classes).
public final class PersistentStoreCoordinator: @unchecked Sendable {
    /// The model.
    public let model: ManagedObjectModel
    /// Every entity's run-time layout.
    public let layout: ModelLayout
    /// The store's UUID: the host part of object-ID URIs.
    public let storeIdentifier: String
    /// The store file, or `nil` for an in-memory store.
    public let url: URL?

    private let lock = NSLock()
    /// Guarded by `lock`.
    private let store: SQLiteStore
    private let registryLock = NSLock()
    /// Guarded by `registryLock`.
    private var classes: [String: ManagedObject.Type] = [:]
    /// Guarded by `registryLock`: for each registered class, its entity, or `nil` when registered for several.
    private var entityNames: [ObjectIdentifier: String?] = [:]
    /// Guarded by `registryLock`: `objectClass(for:)`'s answers by entity number, until the next `register`.
    private var resolvedClasses: [Int: ManagedObject.Type] = [:]
    /// The number of `register` calls so far: what a context's cached answers were worked out under.
    private let registrations = Atomic<Int>(0)

    /// Opens (or creates) the store at `url`, or an in-memory store when `url` is `nil`.
    ///
    /// - Parameter readOnly: open an existing store read-only, changing nothing about its files (see
    ///   ``SQLiteStore/init(model:url:readOnly:)``); saves then fail.
    public init(model: ManagedObjectModel, url: URL?, readOnly: Bool = false) throws(StoreError) {
        let store = try SQLiteStore(model: model, url: url, readOnly: readOnly)
        self.model = model
        self.store = store
        self.url = url
        layout = ModelLayout(model: model, schema: store.schema)
        storeIdentifier = store.metadata.uuid
    }

    /// Makes objects of `entityName` (and of its sub-entities that have no class of their own)
    /// instances of `type`, in every context of this coordinator.
    public func register(_ type: ManagedObject.Type, forEntityName entityName: String) {
        registryLock.withLock {
            let previous = classes[entityName]
            classes[entityName] = type
            resolvedClasses = [:]
            for changed in [previous, type].compactMap({ $0 }) {
                let names = classes.filter { $0.value == changed }.map(\.key)
                entityNames[ObjectIdentifier(changed)] = names.count == 1 ? names.first : String?.none
            }
            registrations.add(1, ordering: .releasing)
        }
    }

    /// The number of ``register(_:forEntityName:)`` calls so far (answers worked out from the class
    /// registry hold while it is unchanged).
    var registrationCount: Int { registrations.load(ordering: .acquiring) }

    /// The class objects of an entity are made of: the one registered for it or its nearest ancestor,
    /// otherwise ``ManagedObject``.
    public func objectClass(for entity: EntityLayout) -> ManagedObject.Type {
        // Answers are kept for this coordinator's own layouts (numbered by its model).
        let isOwn = layout.entity(number: entity.number) === entity
        return registryLock.withLock {
            if isOwn, let type = resolvedClasses[entity.number] { return type }
            var resolved: ManagedObject.Type = ManagedObject.self
            for name in entity.lineage {
                if let type = classes[name] {
                    resolved = type
                    break
                }
            }
            if isOwn { resolvedClasses[entity.number] = resolved }
            return resolved
        }
    }

    /// The entity a class is registered for, when exactly one is.
    func entityName(for type: ManagedObject.Type) -> String? {
        registryLock.withLock { entityNames[ObjectIdentifier(type)] ?? nil }
    }

    /// Runs `body` with the store, serialized with every other use of it.
    /// SQLite's corruption errors (`SQLITE_CORRUPT`, `SQLITE_NOTADB`) leave as
    /// ``StoreError/damagedStore(path:reason:)``.
    func withStore<T>(_ body: (SQLiteStore) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        do {
            return try body(store)
        } catch let error as SQLiteError where error.isCorruption {
            throw StoreError.damagedStore(path: url?.path ?? ":memory:", reason: error.description)
        }
    }
}

extension PersistentStoreCoordinator {
    /// Runs `body` with a new context on this coordinator in a detached task (a private "queue"
    /// context): the context is created, used and released inside the task, so no context is ever
    /// shared between threads.
    public func performBackgroundTask<T: Sendable>(
        _ body: @escaping @Sendable (ManagedObjectContext) throws -> T
    ) async throws -> T {
        try await Task.detached { [self] in
            let context = ManagedObjectContext(coordinator: self)
            return try body(context)
        }.value
    }
}
