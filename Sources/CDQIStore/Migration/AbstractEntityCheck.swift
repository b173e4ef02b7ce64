import CDQIModel
import Foundation

/// Refuses a migration that makes an entity abstract while the store holds objects of exactly that
/// entity: an abstract entity has no instances, and Core Data cannot migrate those objects (it has no
/// entity to give them). Reads the store without writing, before anything is opened for writing.
enum AbstractEntityCheck {
    /// Checks every step of a migration against the store at `url`, which the first step's source wrote:
    /// an entity made abstract in a later step is followed back, through each earlier step's entity
    /// matches (renames), to the store's entity whose objects it would have.
    /// - Throws: ``MigrationError/abstractEntityHasObjects(store:entity:version:count:)`` for the first
    ///   such entity (in step order, then model order).
    static func check(steps: [MigrationStep], store url: URL) throws(MigrationError) {
        guard let first = steps.first else { return }
        let diffs = steps.map { ModelDiff(from: $0.source, to: $0.destination) }
        var candidates: [(entity: String, version: String, storeEntity: String)] = []
        for (index, diff) in diffs.enumerated() {
            for entity in diff.destination.entities where entity.isAbstract {
                guard let sourceName = diff.entityMatches[entity.name], diff.source.entity(named: sourceName)?.isAbstract == false,
                    let storeEntity = storeEntityName(of: sourceName, before: index, diffs: diffs)
                else { continue }
                candidates.append((entity.name, diff.destination.versionName ?? "the new model", storeEntity))
            }
        }
        guard !candidates.isEmpty else { return }
        let schema = StoreSchema(model: first.source)
        for candidate in candidates {
            guard let mapping = schema.entity(named: candidate.storeEntity) else { continue }
            let count = try objectCount(of: mapping, in: url)
            if count > 0 {
                throw .abstractEntityHasObjects(store: url.path, entity: candidate.entity, version: candidate.version, count: count)
            }
        }
    }

    /// The store's entity that step `index`'s source entity `name` descends from, through the renames of
    /// the earlier steps; `nil` when an earlier step added it (the store has no objects of it).
    private static func storeEntityName(of name: String, before index: Int, diffs: [ModelDiff]) -> String? {
        var current = name
        for earlier in diffs[..<index].reversed() {
            guard let older = earlier.entityMatches[current] else { return nil }
            current = older
        }
        return current
    }

    /// The objects of exactly this entity (not of its sub-entities).
    static func objectCount(of entity: EntityMapping, in url: URL) throws(MigrationError) -> Int {
        do {
            let connection = try SQLiteConnection.openForReading(path: url.path)
            let statement = try connection.prepareUncached("SELECT COUNT(*) FROM \(entity.tableName) WHERE Z_ENT = ?")
            try statement.bind(Int64(entity.number), at: 1)
            guard try statement.step() else { return 0 }
            return Int(statement.int64(0))
        } catch {
            throw .sqlite(store: url.path, error)
        }
    }
}
