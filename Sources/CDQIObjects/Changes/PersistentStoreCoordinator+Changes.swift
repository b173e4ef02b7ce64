import Foundation

extension PersistentStoreCoordinator {
    /// Every save that reaches the store from now on: those of this coordinator's contexts (with their
    /// ``SaveChanges``), and writes of other processes or coordinators once detected (origin
    /// ``StoreSave/Origin/external``, carrying the inserted rows' IDs only: see
    /// ``ManagedObjectContext/refreshIfStoreChanged()``). The sequence ends when its task is cancelled.
    public var saves: AsyncStream<StoreSave> { saveStreams.subscribe() }

    /// The number of foreign-write batches detected so far.
    var externalWriteGeneration: Int { externalWrites.generation.load(ordering: .acquiring) }

    /// Looks for writes by other connections (starting to track them on first use) and returns the
    /// current generation and the rows inserted after generation `since`. With `waiting` false, gives
    /// up (returning `nil`) rather than wait for a save in progress.
    func pollExternalWrites(since: Int, waiting: Bool) throws -> (generation: Int, inserted: [ManagedObjectID])? {
        func look(_ probe: any ExternalWriteProbe) throws -> (Int, [ManagedObjectID], ExternalWriteTracker.Entry?) {
            try externalWrites.start(probe, layout: layout)
            let entry = try externalWrites.poll(probe, layout: layout, store: storeNumber)
            let generation = externalWrites.generation.load(ordering: .acquiring)
            return (generation, generation > since ? externalWrites.inserted(after: since) : [], entry)
        }
        let found: (Int, [ManagedObjectID], ExternalWriteTracker.Entry?)?
        found = try capability((any ExternalWriteDetecting).self, for: "detecting other processes' writes")
            .withWriteProbe(waiting: waiting, look)
        guard let (generation, inserted, entry) = found else { return nil }
        if let entry { announceExternal(entry) }
        return (generation, inserted)
    }

    /// Yields a detected foreign write on ``saves``.
    func announceExternal(_ entry: ExternalWriteTracker.Entry) {
        guard saveStreams.hasSubscribers else { return }
        saveStreams.yield(StoreSave(changes: SaveChanges(inserted: entry.inserted, updated: [], deleted: []), origin: .external))
    }
}
