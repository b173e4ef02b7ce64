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

    /// The objects the saves since the last call touched (inserted, updated, deleted), and those they
    /// inserted or updated.
    package func take() -> (touched: Set<ManagedObjectID>, written: Set<ManagedObjectID>) {
        var touched = Set<ManagedObjectID>(), written = Set<ManagedObjectID>()
        for save in inbox.take() {
            written.formUnion(save.inserted)
            written.formUnion(save.updated)
            touched.formUnion(save.deleted)
        }
        touched.formUnion(written)
        return (touched, written)
    }
}
