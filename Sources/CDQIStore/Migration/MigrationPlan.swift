import CDQIModel
import Foundation

/// What migrating a store to a version of its bundle would do, worked out without writing anything.
public struct MigrationPlan: Sendable {
    /// The version that wrote the store, or `nil` when the store's own cached model (`Z_MODELCACHE`) is
    /// the source because the bundle no longer has that version.
    public var sourceVersion: String?
    /// The destination version.
    public var destinationVersion: String?
    /// The source model.
    public var source: ManagedObjectModel
    /// The destination model.
    public var destination: ManagedObjectModel
    /// Whether the store already matches the destination (nothing to do).
    public var isAlreadyCompatible: Bool
    /// Every change, in the model's terms; empty when already compatible.
    public var changes: [ModelChange]

    /// The changes a lightweight migration cannot carry out.
    public var refusals: [ModelChange] { changes.filter { !$0.isInferred } }
}

extension LoadedBundle {
    /// Plans the migration of the store at `url` to the version named `versionName` (the current one when
    /// `nil`): finds the store's version (or its cached model) and compares the two. Writes nothing.
    ///
    /// - Throws: ``MigrationError/noMatchingVersion(store:bundle:nearest:differences:)``,
    ///   ``MigrationError/backwardMigration(store:from:to:)``, ``MigrationError/model(_:)`` for an
    ///   unknown destination version, ``MigrationError/store(_:)``.
    public func migrationPlan(forStoreAt url: URL, to versionName: String? = nil) throws(MigrationError) -> MigrationPlan {
        let target: LoadedModel
        if let versionName {
            guard let named = version(named: versionName) else {
                throw .model(.versionNotFound(
                    bundle: self.url.path, name: versionName, available: versions.compactMap(\.model.versionName), namedBy: nil))
            }
            target = named
        } else {
            target = current
        }
        let metadata: StoreMetadata
        do { metadata = try StoreMetadata.read(from: url) } catch { throw .store(error) }
        let source: ManagedObjectModel
        let sourceName: String?
        if metadata.isCompatible(with: target.model) {
            return MigrationPlan(
                sourceVersion: target.model.versionName, destinationVersion: target.model.versionName, source: target.model,
                destination: target.model, isAlreadyCompatible: true, changes: [])
        } else if let found = version(matching: metadata) {
            let order = versions.map(\.model.versionName)
            if let from = order.firstIndex(of: found.model.versionName), let to = order.firstIndex(of: target.model.versionName),
                from > to
            {
                throw .backwardMigration(
                    store: url.path, from: found.model.versionName ?? "", to: target.model.versionName ?? "")
            }
            source = found.model
            sourceName = found.model.versionName
        } else if let cached = try? ManagedObjectModel(storeModelCacheAt: url) {
            source = cached
            sourceName = nil
        } else {
            let nearest = nearestVersion(to: metadata)
            throw .noMatchingVersion(
                store: url.path, bundle: self.url.lastPathComponent, nearest: nearest.version.model.versionName,
                differences: nearest.differences)
        }
        return MigrationPlan(
            sourceVersion: sourceName, destinationVersion: target.model.versionName, source: source,
            destination: target.model, isAlreadyCompatible: false, changes: ModelDiff(from: source, to: target.model).changes)
    }

    /// Migrates the store at `url` to the version named `versionName` (the current one when `nil`) by
    /// lightweight migration (``StoreMigration``); refuses, writing nothing, when a change needs a mapping model.
    @discardableResult
    public func migrateStore(
        at url: URL, to versionName: String? = nil, progress: ((_ completed: Int, _ total: Int) -> Void)? = nil
    ) throws(MigrationError) -> MigrationReport {
        let plan = try migrationPlan(forStoreAt: url, to: versionName)
        if plan.isAlreadyCompatible { return MigrationReport(changes: [], wasAlreadyCompatible: true, objectCount: 0) }
        return try StoreMigration.migrateStore(at: url, from: plan.source, to: plan.destination, progress: progress)
    }
}
