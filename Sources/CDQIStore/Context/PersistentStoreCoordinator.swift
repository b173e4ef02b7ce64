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
    /// The inboxes of the contexts that follow this coordinator's saves.
    private let followers = Mutex<[WeakMergeInbox]>([])

    /// Opens (or creates) the store at `url`, or an in-memory store when `url` is `nil`.
    public init(model: ManagedObjectModel, url: URL?) throws(StoreError) {
        let store = try SQLiteStore(model: model, url: url)
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

    /// Starts posting every save made through this coordinator (except those of `inbox`'s own
    /// context) into `inbox`.
    func follow(_ inbox: MergeInbox) {
        followers.withLock { $0.append(WeakMergeInbox(inbox: inbox)) }
    }

    /// Stops posting saves into `inbox` (and forgets inboxes whose context is gone).
    func unfollow(_ inbox: MergeInbox) {
        followers.withLock { $0.removeAll { $0.inbox == nil || $0.inbox === inbox } }
    }

    /// Posts a finished save into every following context's inbox but the saver's own (`sender`).
    /// Called by the saving context before its `save()` returns.
    func broadcast(_ changes: SaveChanges, from sender: MergeInbox?) {
        let inboxes = followers.withLock { followers -> [MergeInbox] in
            followers.removeAll { $0.inbox == nil }
            return followers.compactMap { $0.inbox === sender ? nil : $0.inbox }
        }
        guard !inboxes.isEmpty, !changes.isEmpty else { return }
        // Inserts alone are posted too: they change the members of to-many relationships.
        let (updated, deleted) = changes.updatedAndDeleted
        let save = MergeInbox.Save(updated: updated, deleted: deleted)
        for inbox in inboxes { inbox.post(save) }
    }

    /// Runs `body` with the store, serialized with every other use of it.
    func withStore<T>(_ body: (SQLiteStore) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(store)
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
