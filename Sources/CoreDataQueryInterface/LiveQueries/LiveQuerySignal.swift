import CDQIStore
import Foundation

/// The changes a live query has not looked at yet. The coordinator's saves are gathered as they are
/// written (a ``StoreChangeLog``), so a step always knows every save finished before it; pump tasks
/// move each event of the watched async sources (the coordinator's saves, whose changes they add too;
/// for a context's live query, also the context's own changes) into it and wake the iterator. Events that arrive while the consumer
/// is busy are gathered, so one step covers them all (the wake-up stream keeps at most one pending
/// wake-up).
///
/// The sources are subscribed when the signal is made, before the first fetch, so no event after that
/// fetch is missed. The pumps end, and the subscriptions with them, when the iterator's wake-up stream
/// ends (its task was cancelled) or the signal goes away.
final class LiveQuerySignal: Sendable {
    /// What the events not taken yet said, and the saves seen through one way only so far.
    private final class Pending: @unchecked Sendable {
        /// Guards the properties below.
        private let lock = NSLock()
        private var changes = LiveQueryChanges()
        /// Saves taken from the coordinator's events whose copy in the log has not come yet, and saves
        /// taken from the log whose event has not come yet (a few at most; the oldest are dropped).
        private var fromEvents: [SaveChanges] = []
        private var fromLog: [SaveChanges] = []

        func add(_ objects: LiveQueryChanges) {
            guard !objects.isEmpty else { return }
            lock.withLock { changes.formUnion(objects) }
        }

        /// Adds a save announced by the coordinator, unless the log brought it already.
        func addAnnounced(_ save: SaveChanges) {
            lock.withLock {
                if let index = fromLog.firstIndex(of: save) {
                    fromLog.remove(at: index)
                    return
                }
                Self.remember(save, in: &fromEvents)
                changes.formUnion(LiveQuerySignal.changes(of: save))
            }
        }

        /// Takes what was gathered, with the saves of the log that no event brought already.
        func take(logged: [SaveChanges]) -> LiveQueryChanges {
            lock.withLock {
                var taken = changes
                changes = LiveQueryChanges()
                for save in logged {
                    if let index = fromEvents.firstIndex(of: save) {
                        fromEvents.remove(at: index)
                        continue
                    }
                    Self.remember(save, in: &fromLog)
                    taken.formUnion(LiveQuerySignal.changes(of: save))
                }
                return taken
            }
        }

        private static func remember(_ save: SaveChanges, in list: inout [SaveChanges]) {
            list.append(save)
            if list.count > 16 { list.removeFirst() }
        }
    }

    private let pending = Pending()
    private let log: StoreChangeLog
    private let pumps: [Task<Void, Never>]
    /// One element per batch of events (older wake-ups not yet consumed are merged into the newest).
    let wakeUps: AsyncStream<Void>

    /// Watches the coordinator's saves (each wakes the iterator; the objects they changed are gathered).
    convenience init(coordinator: PersistentStoreCoordinator) {
        self.init(coordinator: coordinator, context: nil)
    }

    /// Watches the coordinator's saves and, with `context`, the context's own changes: processed
    /// pending changes, its saves and merges (each wakes the iterator; the objects they changed are
    /// gathered; a will-save does not wake it).
    init(coordinator: PersistentStoreCoordinator, context: ManagedObjectContext?) {
        let (wakeUps, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let pending = self.pending
        log = StoreChangeLog(coordinator: coordinator)
        var pumps = [
            Self.pump(coordinator.saves, into: pending, waking: continuation) { save -> LiveQueryChanges? in
                // A write of another process names its inserted rows only.
                guard save.origin == .context else { return LiveQueryChanges(isComplete: false) }
                // The log has this save too, unless the step this event wakes runs before the coordinator
                // has written the save into it (it announces the save first): taken from whichever
                // comes first.
                pending.addAnnounced(save.changes)
                return LiveQueryChanges()
            }
        ]
        if let context {
            pumps.append(
                Self.pump(context.changes, into: pending, waking: continuation) { change -> LiveQueryChanges? in
                    switch change {
                    case .objectsDidChange(let changes), .didMerge(let changes):
                        var touched = changes.inserted.union(changes.updated).union(changes.deleted)
                        touched.formUnion(changes.refreshed)
                        touched.formUnion(changes.invalidated)
                        return LiveQueryChanges(
                            touched: touched, updated: changes.updated.union(changes.refreshed),
                            isComplete: !changes.invalidatedAll)
                    case .didSave:
                        // A save of the coordinator: in the log.
                        return LiveQueryChanges()
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
    /// event's changes, or `nil` for an event that changes no result.
    private static func pump<Event: Sendable>(
        _ source: AsyncStream<Event>, into pending: Pending, waking continuation: AsyncStream<Void>.Continuation,
        objects: @escaping @Sendable (Event) -> LiveQueryChanges?
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

    /// The changes since the last call: the saves written, and what the events said.
    func takeChanges() -> LiveQueryChanges {
        pending.take(logged: log.take())
    }

    /// A save's changes: every object it wrote is touched; those it inserted or updated are reported as
    /// updated rows when they keep their place (an inserted one only can: a row saved in place).
    static func changes(of save: SaveChanges) -> LiveQueryChanges {
        let written = save.inserted.union(save.updated)
        return LiveQueryChanges(touched: written.union(save.deleted), updated: written)
    }

    deinit {
        for pump in pumps { pump.cancel() }
    }
}
