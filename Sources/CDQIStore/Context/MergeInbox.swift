import Synchronization

/// The saves of other contexts that a context following its coordinator
/// (``ManagedObjectContext/automaticallyMergesChangesFromParent``) has not merged yet.
///
/// The coordinator posts into it from the saving task; the following context takes everything out when
/// it next merges. Each post is the updated and deleted IDs of one save, as arrays shared by every
/// inbox (posting copies no ID).
final class MergeInbox: Sendable {
    /// One save's changes, as a following context needs them.
    struct Save: Sendable {
        var updated: [ManagedObjectID]
        var deleted: [ManagedObjectID]
    }

    private let pending = Mutex<[Save]>([])

    /// Adds a save.
    func post(_ save: Save) {
        pending.withLock { $0.append(save) }
    }

    /// Takes every save posted so far, oldest first, leaving the inbox empty.
    func take() -> [Save] {
        pending.withLock { saves in
            guard !saves.isEmpty else { return [] }
            let taken = saves
            saves = []
            return taken
        }
    }
}

/// An inbox the coordinator does not keep alive: a context that goes away stops following.
struct WeakMergeInbox: Sendable {
    weak var inbox: MergeInbox?
}
