import CDQIStore
import Foundation

/// The saves a live query has not looked at yet. A pump task moves each save of the coordinator into
/// it and wakes the iterator; saves that arrive while the consumer is busy are gathered, so one
/// refetch covers them all (the wake-up stream keeps at most one pending wake-up).
///
/// The coordinator's save stream is subscribed when the signal is made, before the first fetch, so no
/// save after that fetch is missed. The pump ends, and the subscription with it, when the iterator's
/// wake-up stream ends (its task was cancelled) or the signal goes away.
final class LiveQuerySaveSignal: Sendable {
    /// The object IDs updated by the saves not taken yet, and whether any save came.
    private final class Pending: @unchecked Sendable {
        /// Guards `updated`.
        private let lock = NSLock()
        private var updated: Set<ManagedObjectID> = []

        func add(_ save: StoreSave) {
            lock.withLock { updated.formUnion(save.changes.updated) }
        }

        func take() -> Set<ManagedObjectID> {
            lock.withLock {
                defer { updated = [] }
                return updated
            }
        }
    }

    private let pending = Pending()
    private let pump: Task<Void, Never>
    /// One element per batch of saves (older wake-ups not yet consumed are merged into the newest).
    let wakeUps: AsyncStream<Void>

    init(coordinator: PersistentStoreCoordinator) {
        let saves = coordinator.saves
        let (wakeUps, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let pending = self.pending
        let pump = Task {
            for await save in saves {
                pending.add(save)
                continuation.yield()
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in pump.cancel() }
        self.wakeUps = wakeUps
        self.pump = pump
    }

    /// The object IDs updated by the saves since the last call.
    func takeUpdated() -> Set<ManagedObjectID> { pending.take() }

    deinit { pump.cancel() }
}
