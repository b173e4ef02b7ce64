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
/// On a store file, the cursor reads through a read-only connection of its own, so it sees the store as
/// it was when the cursor started (SQLite's snapshot isolation in WAL mode) and never holds the
/// coordinator's lock between batches: other contexts may read and save meanwhile. Each batch's rows are
/// decoded into objects in one step. When the next batch is read, the objects of the previous one are
/// unregistered from the context if they have no unsaved changes and nothing else holds them (keep a
/// reference to an object to keep it registered), which is what keeps memory flat.
///
/// When the context has unsaved changes to objects of the fetched entity, or the store is in memory
/// (a second connection cannot see it), the cursor takes the IDs ``ManagedObjectContext/fetchObjectIDs(_:)``
/// returns (unsaved changes merged, as every fetch does) and loads their objects a batch at a time:
/// memory then grows with the number of IDs, not with the objects.
///
/// A cursor belongs to its context's thread or task, like the context.
public final class FetchCursor {
    private let context: ManagedObjectContext
    private let batchSize: Int
    private var source: Source
    /// The current batch, consumed from `position`.
    private var batch: [ManagedObject] = []
    private var position = 0
    /// Per object of the current batch, whether the cursor registered it (a candidate for release).
    private var batchIsNew: [Bool] = []
    private var finished = false

    private enum Source {
        /// Rows stepped from a statement of the cursor's own connection.
        case rows(connection: SQLiteConnection, statement: SQLiteStatement)
        /// IDs worked out up front, loaded in batches.
        case ids([ManagedObjectID], next: Int)
    }

    init(context: ManagedObjectContext, request: FetchRequest) throws {
        self.context = context
        batchSize = request.fetchBatchSize > 0 ? request.fetchBatchSize : FetchCursor.defaultBatchSize
        let coordinator = context.coordinator
        guard let url = coordinator.url, context.pendingObjects(for: request).isEmpty,
              let layout = coordinator.layout.entity(named: request.entityName)
        else {
            source = .ids(try context.fetchObjectIDs(request), next: 0)
            return
        }
        let (sql, bindings) = try coordinator.withReader { store in
            try store.rowsSQL(for: request, columns: layout.tableColumnsSQL)
        }
        let connection = try SQLiteConnection(path: url.path, mode: .readOnly)
        try SQLiteFunctions.register(on: connection)
        let statement = try connection.prepare(sql)
        for (offset, value) in bindings.enumerated() {
            try statement.bind(value, at: offset + 1)
        }
        source = .rows(connection: connection, statement: statement)
    }

    deinit {
        if case .rows(_, let statement) = source { statement.reset() }
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
        case .rows(_, let statement):
            var reader = RowObjectReader(context: context)
            batch = []
            batch.reserveCapacity(batchSize)
            batchIsNew = []
            batchIsNew.reserveCapacity(batchSize)
            while batch.count < batchSize {
                guard try statement.step() else {
                    finished = true
                    statement.reset()
                    break
                }
                let (object, isNew) = try reader.object(at: statement)
                batch.append(object)
                batchIsNew.append(isNew)
            }
            reader.awakeFilledObjects(in: batch)
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
        while var object = objects.popLast() {
            guard isNew[objects.count], let key = object.objectID.primaryKey,
                object.objectID.storeIdentifier == context.coordinator.storeIdentifier
            else { continue }
            let root = object.entity.rootNumber
            guard context.registered.object(root: root, key: key) === object else { continue }
            context.registered.removeObject(root: root, key: key)
            if !object.hasChanges && isKnownUniquelyReferenced(&object) {
                object.detachFromContext()
            } else {
                context.registered.insert(object, root: root, key: key)
            }
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
