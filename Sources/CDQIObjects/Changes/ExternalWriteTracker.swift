import Foundation
import Synchronization

/// What a coordinator knows about writes made to its store file by anything but its own writer
/// connection (another process, another coordinator), found through the writer's ``ExternalWriteProbe``
/// (on SQLite, `PRAGMA data_version`: SQLite changes that value for every commit of another connection
/// and never for the connection's own, so on the writer it changes exactly for foreign writes).
///
/// Tracking starts the first time a context asks (``ManagedObjectContext/refreshIfStoreChanged()``, or
/// a context following the coordinator); writes made before that are not known. Each time the value
/// has changed, a new *generation* is logged with the rows inserted since the last look: those whose
/// `Z_PK` is above the largest key each table had then (Core Data and CDQI never reuse keys). Which
/// existing rows were updated or deleted is not recorded here: each context works that out for the
/// objects it holds, from their `Z_OPT` (see ``ManagedObjectContext/refreshIfStoreChanged()``).
///
/// Its state is guarded by the store's writer lock (it is only used inside
/// ``ExternalWriteDetecting/withWriteProbe(waiting:_:)`` and save transactions), except
/// `generation`, an atomic that contexts read without the lock.
package final class ExternalWriteTracker: @unchecked Sendable {
    /// One detected batch of foreign writes.
    struct Entry {
        var generation: Int
        var inserted: [ManagedObjectID]
    }

    let generation = Atomic<Int>(0)
    private(set) var isTracking = false
    private var dataVersion: Int64 = 0
    /// The largest `Z_PK` of each root table at the last look.
    private var maxKeys: [String: Int64] = [:]
    /// Every generation's inserts, oldest first.
    private(set) var log: [Entry] = []

    /// Starts tracking if not yet: notes the current data version and largest keys.
    func start(_ connection: any ExternalWriteProbe, layout: ModelLayout) throws {
        guard !isTracking else { return }
        dataVersion = try connection.dataVersion()
        maxKeys = try Self.maxKeys(connection, layout: layout)
        isTracking = true
    }

    /// Looks for foreign writes since the last look; returns the new generation's entry, if any.
    /// Run inside a write transaction, it sees exactly what was committed before it.
    func poll(_ connection: any ExternalWriteProbe, layout: ModelLayout, store: StoreNumber) throws -> Entry? {
        guard isTracking else { return nil }
        let version = try connection.dataVersion()
        guard version != dataVersion else { return nil }
        dataVersion = version
        var inserted: [ManagedObjectID] = []
        for root in Self.roots(of: layout) {
            let floor = maxKeys[root.tableName] ?? 0
            var top = floor
            for (key, entityNumber) in try connection.rows(of: root.tableName, above: floor) {
                top = max(top, key)
                let entity = layout.entity(number: Int(truncatingIfNeeded: entityNumber)) ?? root
                inserted.append(ManagedObjectID(entity: layout.sharedHandle(of: entity), store: store, primaryKey: key))
            }
            maxKeys[root.tableName] = top
        }
        let next = generation.load(ordering: .acquiring) + 1
        let entry = Entry(generation: next, inserted: inserted)
        log.append(entry)
        generation.store(next, ordering: .releasing)
        return entry
    }

    /// Notes the largest keys after a save of this coordinator (inside its transaction, after `poll`):
    /// the rows it inserted are not foreign.
    func noteOwnWrite(_ connection: any ExternalWriteProbe, layout: ModelLayout) throws {
        guard isTracking else { return }
        maxKeys = try Self.maxKeys(connection, layout: layout)
    }

    /// The inserts of the generations after `generation`.
    func inserted(after generation: Int) -> [ManagedObjectID] {
        log.filter { $0.generation > generation }.flatMap(\.inserted)
    }

    private static func roots(of layout: ModelLayout) -> [EntityLayout] {
        layout.byNumber.compactMap { $0 }.filter { $0.number == $0.rootNumber }
    }

    private static func maxKeys(_ connection: any ExternalWriteProbe, layout: ModelLayout) throws -> [String: Int64] {
        var keys: [String: Int64] = [:]
        for root in roots(of: layout) {
            keys[root.tableName] = try connection.largestKey(of: root.tableName)
        }
        return keys
    }
}
