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
    /// Every change from the source straight to the destination, in the model's terms; empty when already
    /// compatible.
    public var changes: [ModelChange]
    /// The migrations to run, in order: one straight to the destination when every change can be inferred
    /// (as Core Data does), otherwise one per consecutive version of the bundle when each of those can
    /// (progressive migration); empty when refused or already compatible.
    public var steps: [MigrationStep]

    /// The changes that stop the migration: empty when ``steps`` can run; otherwise the direct migration's
    /// refused changes (no path through the intermediate versions could be inferred either).
    public var refusals: [ModelChange]
}

/// One lightweight migration between two versions of a bundle.
public struct MigrationStep: Sendable {
    /// The version migrated from (`nil` for the store's cached model).
    public var sourceVersion: String?
    /// The version migrated to.
    public var destinationVersion: String?
    /// The source model.
    public var source: ManagedObjectModel
    /// The destination model.
    public var destination: ManagedObjectModel
    /// The step's changes.
    public var changes: [ModelChange]
}

extension LoadedBundle {
    /// Plans the migration of the store at `url` to the version named `versionName` (the current one when
    /// `nil`): finds the store's version (or its cached model) and compares the two. Writes nothing.
    ///
    /// - Throws: ``MigrationError/noMatchingVersion(store:bundle:nearest:differences:)``,
    ///   ``MigrationError/backwardMigration(store:from:to:)``, ``MigrationError/model(_:)`` for an
    ///   unknown destination version, ``MigrationError/store(_:)``.
    public func migrationPlan(forStoreAt url: URL, to versionName: String? = nil) throws(MigrationError) -> MigrationPlan {
        try ModelVersionChain(bundle: self).migrationPlan(forStoreAt: url, to: versionName)
    }

    /// Migrates the store at `url` to the version named `versionName` (the current one when `nil`) by
    /// lightweight migration (``StoreMigration``): straight to it when every change can be inferred, else
    /// through each intermediate version in turn (progressive migration). Refuses, writing nothing, when
    /// no such path exists, or when an entity becomes abstract while the store holds objects of it
    /// (``MigrationError/abstractEntityHasObjects(store:entity:version:count:)``). Each step is atomic; a
    /// multi-step run interrupted between steps leaves a complete store of an intermediate version, which
    /// the next run migrates on from.
    @discardableResult
    public func migrateStore(
        at url: URL, to versionName: String? = nil, progress: ((_ completed: Int, _ total: Int) -> Void)? = nil
    ) throws(MigrationError) -> MigrationReport {
        try ModelVersionChain(bundle: self).migrateStore(at: url, to: versionName, progress: progress)
    }
}

extension LoadedBundle {
    /// Whether a store's carried model can be an earlier version of `model`: at least one entity of the
    /// one is an entity of the other (by name, or through a renaming identifier). A store of an unrelated
    /// model would otherwise "migrate" by dropping every entity it has.
    static func isEarlierVersion(_ carried: ManagedObjectModel, of model: ManagedObjectModel) -> Bool {
        let names = Set(carried.entities.map(\.name))
        return model.entities.contains { entity in
            names.contains(entity.name) || entity.renamingIdentifier.map(names.contains) == true
        }
    }
}
