/// Every save written through a coordinator from the moment it is made (contexts' saves, batch
/// requests), gathered as the IDs they touched, for an observer that applies changes incrementally.
///
/// The coordinator adds each save before the saving call returns, so ``take()`` always has every save
/// finished before it is called — unlike an async sequence of saves, whose events may still be on
/// their way. (An incremental live query reads the store as it is now: a save it had not heard of would
/// leave its results half changed.) Writes of other processes are not in it: they are only known
/// through ``PersistentStoreCoordinator/saves``.
package final class StoreChangeLog: Sendable {
    private let coordinator: PersistentStoreCoordinator
    private let inbox = MergeInbox()

    /// Starts gathering the coordinator's saves.
    package init(coordinator: PersistentStoreCoordinator) {
        self.coordinator = coordinator
        coordinator.follow(inbox)
    }

    deinit {
        coordinator.unfollow(inbox)
    }

    /// The saves since the last call, oldest first.
    package func take() -> [SaveChanges] {
        inbox.take().map { save in
            SaveChanges(inserted: Set(save.inserted), updated: Set(save.updated), deleted: Set(save.deleted))
        }
    }
}
