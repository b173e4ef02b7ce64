import CDQIStore
import Foundation

/// The changes a live query has not looked at yet. Pump tasks move each event of the watched sources
/// (the coordinator's saves; for a context's live query, also the context's own changes) into it and
/// wake the iterator; events that arrive while the consumer is busy are gathered, so one refetch covers
/// them all (the wake-up stream keeps at most one pending wake-up).
///
/// The sources are subscribed when the signal is made, before the first fetch, so no event after that
/// fetch is missed. The pumps end, and the subscriptions with them, when the iterator's wake-up stream
/// ends (its task was cancelled) or the signal goes away.
final class LiveQuerySignal: Sendable {
    /// The object IDs changed by the events not taken yet, and the context's saves seen through one
    /// source only so far.
    private final class Pending: @unchecked Sendable {
        /// Where an event came from: a context's own save reaches a context's live query twice, once as
        /// the context's did-save and once as the coordinator's save.
        enum Source { case coordinator, context }

        /// Guards the properties below.
        private let lock = NSLock()
        private var updated: Set<ManagedObjectID> = []
        /// Saves taken from one source and not yet seen from the other, newest last (a few at most:
        /// saves of other contexts only ever come from the coordinator, and are dropped once old).
        private var unpaired: [(save: SaveChanges, source: Source)] = []

        func add(_ objects: Set<ManagedObjectID>) {
            guard !objects.isEmpty else { return }
            lock.withLock { updated.formUnion(objects) }
        }

        /// Whether `save`, arriving from `source`, is new: false when the other source brought it already.
        func isFirstSight(of save: SaveChanges, from source: Source) -> Bool {
            lock.withLock {
                if let index = unpaired.firstIndex(where: { $0.source != source && $0.save == save }) {
                    unpaired.remove(at: index)
                    return false
                }
                unpaired.append((save, source))
                if unpaired.count > 16 { unpaired.removeFirst() }
                return true
            }
        }

        func take() -> Set<ManagedObjectID> {
            lock.withLock {
                defer { updated = [] }
                return updated
            }
        }
    }

    private let pending = Pending()
    private let pumps: [Task<Void, Never>]
    /// One element per batch of saves (older wake-ups not yet consumed are merged into the newest).
    let wakeUps: AsyncStream<Void>

    /// Watches the coordinator's saves (each wakes the iterator; their updated objects are gathered).
    convenience init(coordinator: PersistentStoreCoordinator) {
        self.init(coordinator: coordinator, context: nil)
    }

    /// Watches the coordinator's saves and, with `context`, the context's own changes: processed
    /// pending changes, its saves and merges (each wakes the iterator; the objects they changed are
    /// gathered; a will-save does not wake it). A save of the context itself comes from both sources
    /// and counts once, whichever comes first.
    init(coordinator: PersistentStoreCoordinator, context: ManagedObjectContext?) {
        let (wakeUps, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let pending = self.pending
        let pairsSaves = context != nil
        var pumps = [
            Self.pump(coordinator.saves, into: pending, waking: continuation) { save -> Set<ManagedObjectID>? in
                guard !pairsSaves || pending.isFirstSight(of: save.changes, from: .coordinator) else { return nil }
                return save.changes.updated
            }
        ]
        if let context {
            pumps.append(
                Self.pump(context.changes, into: pending, waking: continuation) { change -> Set<ManagedObjectID>? in
                    switch change {
                    case .objectsDidChange(let changes), .didMerge(let changes):
                        return changes.updated.union(changes.refreshed)
                    case .didSave(let saved):
                        guard pending.isFirstSight(of: saved, from: .context) else { return nil }
                        return saved.updated.union(saved.inserted)
                    case .willSave:
                        return nil
                    }
                })
        }
        let started = pumps
        continuation.onTermination = { _ in
            for pump in started { pump.cancel() }
        }
        self.wakeUps = wakeUps
        self.pumps = pumps
    }

    /// A task moving each event of `source` into `pending` and waking the iterator; `objects` gives an
    /// event's changed objects, or `nil` for an event that changes no result.
    private static func pump<Event: Sendable>(
        _ source: AsyncStream<Event>, into pending: Pending, waking continuation: AsyncStream<Void>.Continuation,
        objects: @escaping @Sendable (Event) -> Set<ManagedObjectID>?
    ) -> Task<Void, Never> {
        Task {
            for await event in source {
                guard let changed = objects(event) else { continue }
                pending.add(changed)
                continuation.yield()
            }
            continuation.finish()
        }
    }

    /// The object IDs changed by the events since the last call.
    func takeUpdated() -> Set<ManagedObjectID> { pending.take() }

    deinit {
        for pump in pumps { pump.cancel() }
    }
}
