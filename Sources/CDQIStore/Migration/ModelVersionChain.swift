import CDQIModel
import Foundation

/// The versions of one model, oldest first, that a store can be migrated along: a bundle's versions
/// (``LoadedBundle``) or those a generated model carries (``VersionedGeneratedModel``). Plans and runs the
/// migrations of both, so that the two behave alike.
struct ModelVersionChain {
    /// Every version, oldest first.
    var versions: [ManagedObjectModel]
    /// The version migrated to when none is named.
    var current: ManagedObjectModel
    /// What the versions are called in errors (`Shop.xcdatamodeld`, `ShopModel`).
    var name: String
    /// Where the versions are, for an unknown version's error (the bundle's path).
    var location: String
    /// Whether a store no version wrote is migrated from the model it carries (`Z_MODELCACHE`) when that
    /// is an earlier version of the destination: a bundle's older versions may have been deleted from it.
    /// A generated model's versions are all it knows, so a store none of them wrote (another model's, or a
    /// newer version's, which such a migration would strip of what is newer) is refused.
    var migratesFromCarriedModel: Bool

    init(bundle: LoadedBundle) {
        versions = bundle.versions.map(\.model)
        current = bundle.current.model
        name = bundle.url.lastPathComponent
        location = bundle.url.path
        migratesFromCarriedModel = true
    }

    init(versions: [ManagedObjectModel], current: ManagedObjectModel, name: String, migratesFromCarriedModel: Bool) {
        self.versions = versions
        self.current = current
        self.name = name
        location = name
        self.migratesFromCarriedModel = migratesFromCarriedModel
    }

    /// The version that differs least from the store's hashes (the newest of equals), and how.
    func nearestVersion(to metadata: StoreMetadata) -> (version: ManagedObjectModel, differences: [String]) {
        var best = (version: current, differences: metadata.incompatibilities(with: current))
        for version in versions.reversed() {
            let differences = metadata.incompatibilities(with: version)
            if differences.count < best.differences.count { best = (version, differences) }
        }
        return best
    }

    /// See ``LoadedBundle/migrationPlan(forStoreAt:to:)``.
    func migrationPlan(forStoreAt url: URL, to versionName: String? = nil) throws(MigrationError) -> MigrationPlan {
        let target: ManagedObjectModel
        if let versionName {
            let bare = versionName.hasSuffix(".xcdatamodel") ? String(versionName.dropLast(".xcdatamodel".count)) : versionName
            guard let named = versions.first(where: { $0.versionName == bare }) else {
                throw .model(.versionNotFound(bundle: location, name: versionName, available: versions.compactMap(\.versionName), namedBy: nil))
            }
            target = named
        } else {
            target = current
        }
        let metadata: StoreMetadata
        do { metadata = try StoreMetadata.read(from: url) } catch { throw .store(error) }
        let source: ManagedObjectModel
        let sourceName: String?
        if metadata.isCompatible(with: target) {
            return MigrationPlan(
                sourceVersion: target.versionName, destinationVersion: target.versionName, source: target,
                destination: target, isAlreadyCompatible: true, changes: [], steps: [], refusals: [])
        } else if let found = sourceVersion(matching: metadata, before: target) {
            let order = versions.map(\.versionName)
            if let from = order.firstIndex(of: found.versionName), let to = order.firstIndex(of: target.versionName), from > to {
                throw .backwardMigration(store: url.path, from: found.versionName ?? "", to: target.versionName ?? "")
            }
            source = found
            sourceName = found.versionName
        } else if migratesFromCarriedModel, let cached = try? ManagedObjectModel(storeModelCacheAt: url),
            LoadedBundle.isEarlierVersion(cached, of: target)
        {
            source = cached
            sourceName = nil
        } else {
            let nearest = nearestVersion(to: metadata)
            throw .noMatchingVersion(store: url.path, bundle: name, nearest: nearest.version.versionName, differences: nearest.differences)
        }
        let direct = ModelDiff(from: source, to: target)
        var plan = MigrationPlan(
            sourceVersion: sourceName, destinationVersion: target.versionName, source: source,
            destination: target, isAlreadyCompatible: false, changes: direct.changes, steps: [],
            refusals: direct.refusals)
        if direct.refusals.isEmpty {
            plan.steps = [
                MigrationStep(
                    sourceVersion: sourceName, destinationVersion: target.versionName, source: source,
                    destination: target, changes: direct.changes)
            ]
        } else if let progressive = progressiveSteps(from: sourceName, to: target) {
            plan.steps = progressive
            plan.refusals = []
        }
        return plan
    }

    /// The version that wrote the store: of several versions with its hashes, the newest one not after
    /// `target` (versions differing only outside the hashes are interchangeable sources).
    private func sourceVersion(matching metadata: StoreMetadata, before target: ManagedObjectModel) -> ManagedObjectModel? {
        let matches = versions.filter { metadata.isCompatible(with: $0) }
        let order = versions.map(\.versionName)
        let limit = order.firstIndex(of: target.versionName) ?? order.count
        return matches.last { (order.firstIndex(of: $0.versionName) ?? 0) <= limit } ?? matches.last
    }

    /// One step per consecutive pair of versions from `sourceName` to `target`, or `nil` when a step cannot
    /// be inferred (or the source is not one of the versions).
    private func progressiveSteps(from sourceName: String?, to target: ManagedObjectModel) -> [MigrationStep]? {
        let names = versions.map(\.versionName)
        guard let sourceName, let from = names.firstIndex(of: sourceName),
            let to = names.firstIndex(of: target.versionName), to > from + 1
        else { return nil }
        var steps: [MigrationStep] = []
        for index in from..<to {
            let (before, after) = (versions[index], versions[index + 1])
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

    /// See ``LoadedBundle/migrateStore(at:to:progress:)``.
    func migrateStore(
        at url: URL, to versionName: String? = nil, progress: ((_ completed: Int, _ total: Int) -> Void)? = nil
    ) throws(MigrationError) -> MigrationReport {
        let plan = try migrationPlan(forStoreAt: url, to: versionName)
        if plan.isAlreadyCompatible { return MigrationReport(changes: [], wasAlreadyCompatible: true, objectCount: 0) }
        guard plan.refusals.isEmpty else {
            throw .notInferable(from: plan.sourceVersion ?? "the store's model", to: plan.destinationVersion ?? "", changes: plan.refusals)
        }
        // Checked for every step before the first writes: a refusal in a later step must not leave the
        // store at an intermediate version.
        try AbstractEntityCheck.check(steps: plan.steps, store: url)
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
