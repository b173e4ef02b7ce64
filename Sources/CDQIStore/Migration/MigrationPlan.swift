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
        let target: LoadedModel
        if let versionName {
            guard let named = version(named: versionName) else {
                throw .model(
                    .versionNotFound(
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
                destination: target.model, isAlreadyCompatible: true, changes: [], steps: [], refusals: [])
        } else if let found = sourceVersion(matching: metadata, before: target) {
            let order = versions.map(\.model.versionName)
            if let from = order.firstIndex(of: found.model.versionName), let to = order.firstIndex(of: target.model.versionName),
                from > to
            {
                throw .backwardMigration(
                    store: url.path, from: found.model.versionName ?? "", to: target.model.versionName ?? "")
            }
            source = found.model
            sourceName = found.model.versionName
        } else if let cached = try? ManagedObjectModel(storeModelCacheAt: url), Self.isEarlierVersion(cached, of: target.model) {
            source = cached
            sourceName = nil
        } else {
            let nearest = nearestVersion(to: metadata)
            throw .noMatchingVersion(
                store: url.path, bundle: self.url.lastPathComponent, nearest: nearest.version.model.versionName,
                differences: nearest.differences)
        }
        let direct = ModelDiff(from: source, to: target.model)
        var plan = MigrationPlan(
            sourceVersion: sourceName, destinationVersion: target.model.versionName, source: source,
            destination: target.model, isAlreadyCompatible: false, changes: direct.changes, steps: [],
            refusals: direct.refusals)
        if direct.refusals.isEmpty {
            plan.steps = [
                MigrationStep(
                    sourceVersion: sourceName, destinationVersion: target.model.versionName, source: source,
                    destination: target.model, changes: direct.changes)
            ]
        } else if let progressive = progressiveSteps(from: sourceName, to: target) {
            plan.steps = progressive
            plan.refusals = []
        }
        return plan
    }

    /// The version that wrote the store: of several versions with its hashes, the newest one not after
    /// `target` (versions differing only outside the hashes are interchangeable sources).
    private func sourceVersion(matching metadata: StoreMetadata, before target: LoadedModel) -> LoadedModel? {
        let matches = versions(matching: metadata)
        let order = versions.map(\.model.versionName)
        let limit = order.firstIndex(of: target.model.versionName) ?? order.count
        return matches.last { (order.firstIndex(of: $0.model.versionName) ?? 0) <= limit } ?? matches.last
    }

    /// One step per consecutive pair of versions from `sourceName` to `target`, or `nil` when a step cannot
    /// be inferred (or the source is not a version of the bundle).
    private func progressiveSteps(from sourceName: String?, to target: LoadedModel) -> [MigrationStep]? {
        let names = versions.map(\.model.versionName)
        guard let sourceName, let from = names.firstIndex(of: sourceName),
            let to = names.firstIndex(of: target.model.versionName), to > from + 1
        else { return nil }
        var steps: [MigrationStep] = []
        for index in from..<to {
            let (before, after) = (versions[index].model, versions[index + 1].model)
            // Versions with the same hashes (a transient-only change) need no step.
            if ModelVersionHashes(model: before).entityHashes == ModelVersionHashes(model: after).entityHashes { continue }
            let diff = ModelDiff(from: steps.last?.destination ?? before, to: after)
            guard diff.refusals.isEmpty else { return nil }
            steps.append(
                MigrationStep(
                    sourceVersion: steps.last?.destinationVersion ?? before.versionName, destinationVersion: after.versionName,
                    source: steps.last?.destination ?? before, destination: after, changes: diff.changes))
        }
        return steps
    }

    /// Migrates the store at `url` to the version named `versionName` (the current one when `nil`) by
    /// lightweight migration (``StoreMigration``): straight to it when every change can be inferred, else
    /// through each intermediate version in turn (progressive migration). Refuses, writing nothing, when
    /// no such path exists. Each step is atomic; a multi-step run interrupted between steps leaves a
    /// complete store of an intermediate version, which the next run migrates on from.
    @discardableResult
    public func migrateStore(
        at url: URL, to versionName: String? = nil, progress: ((_ completed: Int, _ total: Int) -> Void)? = nil
    ) throws(MigrationError) -> MigrationReport {
        let plan = try migrationPlan(forStoreAt: url, to: versionName)
        if plan.isAlreadyCompatible { return MigrationReport(changes: [], wasAlreadyCompatible: true, objectCount: 0) }
        guard plan.refusals.isEmpty else {
            throw .notInferable(
                from: plan.sourceVersion ?? "the store's model", to: plan.destinationVersion ?? "", changes: plan.refusals)
        }
        var report = MigrationReport(changes: [], wasAlreadyCompatible: false, objectCount: 0)
        for (index, step) in plan.steps.enumerated() {
            let done = try StoreMigration.migrateStore(at: url, from: step.source, to: step.destination) { completed, total in
                progress?(index * total + completed, plan.steps.count * total)
            }
            report.changes += done.changes
            report.objectCount = done.objectCount
        }
        return report
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
