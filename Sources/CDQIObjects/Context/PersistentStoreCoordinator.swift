import CDQIModel
import Foundation
import Synchronization

/// Owns a model and its store: contexts on any thread or task share one coordinator.
///
/// The store is a SQLite file (or memory: `CDQISQLite`), or a PostgreSQL schema (`CDQIPostgres`),
/// behind the ``PersistentStore`` protocol; features only some stores have are optional capabilities of
/// the store (``ExternalWriteDetecting``, ``SingleTransactionWriting``, ``SQLLogging``,
/// ``RowCursorOpening``). A SQLite store file
/// has one writer connection and a pool of read-only connections (WAL mode): saves take the writer, one
/// at a time; fetches, counts, dictionary fetches, faults and prefetches take the writer when it is idle
/// and no save waits for it, and a reader otherwise, so those of different contexts run at the same
/// time, and none waits for a save. Each statement reads the last
/// state committed when it started: a fetch never sees part of a save. An in-memory store has one
/// connection, shared by reads and saves one at a time (a second connection would open another, empty
/// database).
///
/// It is `Sendable`: its state is immutable except the store (itself `Sendable`), the class registry,
/// only touched while holding `registryLock` (a separate lock, so that code running with the store may
/// still look up classes), and the following contexts' inboxes, only touched while holding `followersLock`.
public final class PersistentStoreCoordinator: @unchecked Sendable {
    /// The model.
    public let model: ManagedObjectModel
    /// Every entity's run-time layout.
    public let layout: ModelLayout
    /// The store's UUID: the host part of object-ID URIs.
    public let storeIdentifier: String
    /// ``storeIdentifier``'s interned number, which object IDs hold.
    package let storeNumber: StoreNumber
    /// The SQLite store file, or `nil` for an in-memory store or a store of another kind.
    public let url: URL?
    /// The store contexts read and write through.
    package let store: any PersistentStore

    /// The most read connections a store file gets when no count is given: as many as GRDB's
    /// `DatabasePool` opens by default.
    public static let defaultReaderCount = 5

    private let registryLock = NSLock()
    /// Guarded by `registryLock`.
    private var classes: [String: ManagedObject.Type] = [:]
    /// Guarded by `registryLock`: for each registered class, its entity, or `nil` when registered for several.
    private var entityNames: [ObjectIdentifier: String?] = [:]
    /// Guarded by `registryLock`: `objectClass(for:)`'s answers by entity number, until the next `register`.
    private var resolvedClasses: [Int: ManagedObject.Type] = [:]
    /// The number of `register` calls so far: what a context's cached answers were worked out under.
    private let registrations = Atomic<Int>(0)
    private let followersLock = NSLock()
    /// Guarded by `followersLock`: the inboxes of the contexts that follow this coordinator's saves.
    private var followers: [WeakMergeInbox] = []
    /// Foreign writes to the store file; guarded by the writer's lock (used inside
    /// ``ExternalWriteDetecting/withWriteProbe(waiting:_:)`` only).
    package let externalWrites = ExternalWriteTracker()
    /// The subscribers of ``saves``.
    let saveStreams = ChangeStreams<StoreSave>()

    /// A coordinator over a store already opened for `model` (a PostgreSQL store, or a SQLite one).
    package init(model: ManagedObjectModel, store: any PersistentStore, url: URL? = nil) {
        self.model = model
        self.store = store
        self.url = url
        layout = ModelLayout(model: model, schema: store.schema)
        storeIdentifier = store.metadata.uuid
        storeNumber = StoreNumber(store.metadata.uuid)
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
        followersLock.withLock { followers.append(WeakMergeInbox(inbox: inbox)) }
    }

    /// Stops posting saves into `inbox` (and forgets inboxes whose context is gone).
    func unfollow(_ inbox: MergeInbox) {
        followersLock.withLock { followers.removeAll { $0.inbox == nil || $0.inbox === inbox } }
    }

    /// Whether some context follows this coordinator's saves (see
    /// ``ManagedObjectContext/automaticallyMergesChangesFromParent``).
    var hasFollowers: Bool {
        followersLock.withLock { followers.contains { $0.inbox != nil } }
    }

    /// Posts a finished save into every following context's inbox but the saver's own (`sender`).
    /// Called by the saving context before its `save()` returns.
    func broadcast(_ changes: SaveChanges, from sender: MergeInbox?) {
        if saveStreams.hasSubscribers, !changes.isEmpty { saveStreams.yield(StoreSave(changes: changes, origin: .context)) }
        let inboxes = followersLock.withLock { () -> [MergeInbox] in
            followers.removeAll { $0.inbox == nil }
            return followers.compactMap { $0.inbox === sender ? nil : $0.inbox }
        }
        guard !inboxes.isEmpty, !changes.isEmpty else { return }
        // Inserts alone are posted too: they change the members of to-many relationships.
        let (inserted, updated, deleted) = changes.lists
        let save = MergeInbox.Save(inserted: inserted, updated: updated, deleted: deleted)
        for inbox in inboxes { inbox.post(save) }
    }

    /// The store's optional capability `Capability` (see ``ExternalWriteDetecting``, ``SingleTransactionWriting``,
    /// ``SQLLogging``, ``RowCursorOpening``), or ``StoreError/unsupported(path:operation:)`` naming
    /// `operation` for a store without it.
    package func capability<Capability>(
        _ type: Capability.Type, for operation: String
    ) throws(StoreError) -> Capability {
        guard let capable = store as? Capability else { throw .unsupported(path: store.location, operation: operation) }
        return capable
    }

    /// A read connection for one owner's sole use, serving a fetch cursor's rows until the cursor ends
    /// (see ``RowCursorOpening``), or `nil` for a store without one (in memory, a reader count of 0, a
    /// store that is not SQLite).
    func openRowCursor(_ request: FetchRequest, layout: EntityLayout) throws -> (any StoreRowCursor)? {
        try (store as? any RowCursorOpening)?.openRowCursor(request, layout: layout)
    }

    /// The most read connections of the store (0 when reads share the writer).
    public var readerCount: Int { (store as? any RowCursorOpening)?.readerCapacity ?? 0 }

    /// The number of read connections open now (they are opened when first needed).
    package var openReaderCount: Int { (store as? any RowCursorOpening)?.openReaderCount ?? 0 }
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
