import CDQIPredicate
import Foundation

/// Walks the objects of a fetch a batch at a time, so that memory stays flat however many rows match.
///
/// ```swift
/// var request = FetchRequest(entityName: "Employee")
/// request.fetchBatchSize = 500
/// let cursor = try context.cursor(for: request)
/// while let employee = try cursor.next() {
///     print(try employee.value(forKey: "lastName") ?? "")
/// }
/// ```
///
/// On a store file, the cursor holds one of the coordinator's read connections for its life (given back
/// to the pool when the last row has been read or the cursor is released; when every reader of the pool
/// is busy, it opens one of its own rather than wait), so it sees the store as it was when the cursor
/// started (SQLite's snapshot isolation in WAL mode) and never holds the writer between batches: other
/// contexts may read and save meanwhile. Each batch's rows are
/// decoded into objects in one step. When the next batch is read, the objects of the previous one are
/// unregistered from the context if they have no unsaved changes and nothing else holds them (keep a
/// reference to an object to keep it registered), which is what keeps memory flat. Such an object
/// that nothing references (no strong, weak or unowned reference) is reused as the object of a row of
/// the next batch rather than freed, so an `ObjectIdentifier` taken from a walked object may come back
/// for another row, as it may when memory is freed and reused. That is done for objects of the base
/// ``ManagedObject`` class and of the classes `cdqi` generates (see
/// ``ManagedObject/cdqiReusableClass``); objects of classes written by hand are always made anew.
///
/// When the context has unsaved changes to objects of the fetched entity, or the store has no readers
/// (it is in memory, where a second connection cannot see it, or its reader count is 0), the cursor takes the IDs ``ManagedObjectContext/fetchObjectIDs(_:)``
/// returns (unsaved changes merged, as every fetch does) and loads their objects a batch at a time:
/// memory then grows with the number of IDs, not with the objects.
///
/// A cursor belongs to its context's thread or task, like the context.
public final class FetchCursor {
    private let context: ManagedObjectContext
    private let batchSize: Int
    private var source: Source
    // The batch state skips the run-time exclusivity check, which cost more per row than the rest of
    // `next()` (a cursor is confined to one thread, and no access here overlaps another).
    /// The current batch, consumed from `position`.
    @exclusivity(unchecked) private var batch: [ManagedObject] = []
    @exclusivity(unchecked) private var position = 0
    /// Per object of the current batch, whether the cursor registered it (a candidate for release).
    @exclusivity(unchecked) private var batchIsNew: [Bool] = []
    /// Objects of the batch walked last that the cursor unregistered and nothing else holds: the next
    /// batch reuses them for its rows rather than freeing these and making new ones.
    @exclusivity(unchecked) private var spareShells: [ManagedObject] = []
    private var finished = false

    private enum Source {
        /// Rows stepped on a read connection the cursor holds (see ``RowCursorOpening``).
        case rows(any StoreRowCursor)
        /// IDs worked out up front, loaded in batches.
        case ids([ManagedObjectID], next: Int)
        /// Every row read: the reader is given back.
        case exhausted
    }

    init(context: ManagedObjectContext, request: FetchRequest) throws {
        self.context = context
        batchSize = request.fetchBatchSize > 0 ? request.fetchBatchSize : FetchCursor.defaultBatchSize
        let coordinator = context.coordinator
        guard context.pendingObjects(for: request).isEmpty,
            let layout = context.entityLayout(named: request.entityName),
            let rows = try coordinator.openRowCursor(request, layout: layout)
        else {
            source = .ids(try context.fetchObjectIDs(request), next: 0)
            return
        }
        source = .rows(rows)
    }

    deinit {
        if case .rows(let rows) = source { rows.end() }
    }

    /// The batch size used when the request gives none.
    public static let defaultBatchSize = 1_000

    /// The next object, or `nil` after the last one.
    ///
    /// - Throws: ``SQLiteError`` when the store cannot be read; the cursor is finished afterwards.
    public func next() throws -> ManagedObject? {
        if position == batch.count {
            releaseBatch()
            if finished { return nil }
            do {
                try readBatch()
            } catch {
                finished = true
                throw error
            }
            if batch.isEmpty {
                finished = true
                return nil
            }
        }
        defer { position += 1 }
        return batch[position]
    }

    private func readBatch() throws {
        switch source {
        case .rows(let rows):
            var reader = RowObjectReader(context: context)
            swap(&reader.shells, &spareShells)
            defer { swap(&reader.shells, &spareShells) }
            batch = []
            batch.reserveCapacity(batchSize)
            batchIsNew = []
            batchIsNew.reserveCapacity(batchSize)
            do {
                if try !rows.readRows(upTo: batchSize, with: &reader, into: &batch, isNew: &batchIsNew) { finished = true }
            } catch {
                endRows()
                throw error
            }
            if finished { endRows() }
            reader.awakeFilledObjects(in: batch)
        case .exhausted:
            batch = []
            batchIsNew = []
            finished = true
        case .ids(let ids, let next):
            let end = min(ids.count, next + batchSize)
            let slice = ids[next..<end]
            batchIsNew = slice.map { context.registered[$0] == nil }
            batch = slice.map { context.object(with: $0) }
            source = .ids(ids, next: end)
            if end == ids.count { finished = true }
        }
        position = 0
    }

    /// Ends the row statement and gives the reader back to the pool.
    private func endRows() {
        if case .rows(let rows) = source { rows.end() }
        source = .exhausted
    }

    /// Drops the cursor's hold on the objects of the batch just walked, and unregisters those that
    /// nothing else holds and that have no unsaved changes.
    private func releaseBatch() {
        var objects = batch
        let isNew = batchIsNew
        batch = []
        batchIsNew = []
        position = 0
        // Popped one by one, so that an object nothing else holds is referenced only here. Only saved
        // objects of this store are released (a temporary ID's object has unsaved changes anyway).
        let store = context.coordinator.storeNumber
        while var object = objects.popLast() {
            guard isNew[objects.count], let key = object.objectID.primaryKey,
                object.objectID.store == store
            else { continue }
            let root = object.entity.rootNumber
            // Out of the registry (when it is still this object), so that `object` may hold it alone.
            guard context.registered.removeObject(root: root, key: key, ifIdenticalTo: ObjectIdentifier(object))
            else { continue }
            if object.hasChanges || !isKnownUniquelyReferenced(&object) {
                context.registered.insert(object, root: root, key: key)
            } else if object.isReusableShell {
                // Nothing else can reach it: the next batch makes it another row's object.
                spareShells.append(consume object)
            }
            // Otherwise nothing else holds it: it is freed here, with no need to turn it into a fault
            // first (no one can reach it again).
        }
    }
}

extension ManagedObjectContext {
    /// A cursor over the objects a request matches, read `request.fetchBatchSize` at a time (1,000
    /// when the request gives no batch size). See ``FetchCursor``.
    ///
    /// - Throws: ``PredicateSQLError`` for a predicate a fetch cannot run, ``SQLiteError`` when the store
    ///   cannot be read.
    public func cursor(for request: FetchRequest) throws -> FetchCursor {
        processPendingMerges()
        return try FetchCursor(context: self, request: request)
    }
}
