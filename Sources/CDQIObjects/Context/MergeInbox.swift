import Foundation

/// The saves of other contexts that a context following its coordinator
/// (``ManagedObjectContext/automaticallyMergesChangesFromParent``) has not merged yet.
///
/// The coordinator posts into it from the saving task; the following context takes everything out when
/// it next merges. Each post is the updated and deleted IDs of one save, as arrays shared by every
/// inbox (posting copies no ID).
///
/// It is `Sendable`: `pending` is only touched while holding `lock` (an `NSLock`, whose pthread mutex
/// ThreadSanitizer understands).
final class MergeInbox: @unchecked Sendable {
    /// One save's changes, as a following context needs them.
    struct Save: Sendable {
        var inserted: [ManagedObjectID] = []
        var updated: [ManagedObjectID]
        var deleted: [ManagedObjectID]
    }

    private let lock = NSLock()
    /// Guarded by `lock`.
    private var pending: [Save] = []

    /// Adds a save.
    func post(_ save: Save) {
        lock.withLock { pending.append(save) }
    }

    /// Takes every save posted so far, oldest first, leaving the inbox empty.
    func take() -> [Save] {
        lock.withLock {
            guard !pending.isEmpty else { return [] }
            let taken = pending
            pending = []
            return taken
        }
    }
}

/// An inbox the coordinator does not keep alive: a context that goes away stops following.
struct WeakMergeInbox: Sendable {
    weak var inbox: MergeInbox?
}
