import CDQIModel

/// Why a store could not be matched with a model version or migrated.
///
/// ``code`` mirrors the `NSCocoaErrorDomain` code Apple's Core Data reports for the same problem.
public enum MigrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The store could not be opened or read.
    case store(StoreError)
    /// A model could not be loaded.
    case model(ModelError)
    /// No version of the bundle has the store's entity version hashes (and the store carries no
    /// usable model); `nearest` is the version that differs least, with its differences.
    case noMatchingVersion(store: String, bundle: String, nearest: String?, differences: [String])
    /// The store carries no model (`Z_MODELCACHE` missing, empty or NULL: stores of framework ≤ 519).
    case noModelCache(store: String)
    /// The store's cached model could not be decoded.
    case unreadableModelCache(store: String, ModelCacheError)
    /// The store's cached model does not have the entity version hashes of its metadata.
    case modelCacheMismatch(store: String, differences: [String])
    /// The store was not written by the migration's source model.
    case sourceMismatch(store: String, differences: [String])
    /// The destination is an older version than the store's: migrations go forward only.
    case backwardMigration(store: String, from: String, to: String)
    /// Changes a lightweight migration cannot carry out, each named; nothing was written.
    case notInferable(from: String, to: String, changes: [ModelChange])
    /// The destination makes `entity` abstract while the store holds `count` objects of exactly that
    /// entity, which Core Data cannot migrate (an abstract entity has no instances); nothing was written.
    /// Delete those objects, or make them objects of a sub-entity, with the older version first.
    case abstractEntityHasObjects(store: String, entity: String, version: String, count: Int)
    /// Objects lack a value the destination requires and has no default for; nothing was written.
    case missingValues(store: String, problems: [String])
    /// Existing objects break a uniqueness constraint of the destination; nothing was written.
    case constraintViolation(store: String, reason: String)
    /// Another connection or process has the store open; nothing was written.
    case storeBusy(store: String)
    /// SQLite failed while migrating; the original store was left as it was.
    case sqlite(store: String, SQLiteError)
    /// The file system refused a step (creating, syncing or renaming the new store).
    case fileSystem(store: String, reason: String)
    /// No version of the bundle has the version hashes of a model `cdqi` generated: the code was
    /// generated from another model, or before the bundle changed.
    case generatedModelNotInBundle(generatedModel: String, bundle: String)

    /// Apple's `NSCocoaErrorDomain` code for the problem.
    public var code: Int {
        switch self {
        case .store: return 134_180
        case .model: return 134_130
        case .noMatchingVersion, .noModelCache, .unreadableModelCache, .modelCacheMismatch, .sourceMismatch: return 134_130
        case .generatedModelNotInBundle: return 134_130
        case .backwardMigration, .missingValues, .abstractEntityHasObjects: return 134_110
        case .notInferable: return 134_140
        case .constraintViolation: return 134_111
        case .storeBusy, .sqlite, .fileSystem: return 134_180
        }
    }

    /// A sentence naming the problem.
    public var description: String {
        switch self {
        case .store(let error):
            return error.description
        case .model(let error):
            return error.description
        case .noMatchingVersion(let store, let bundle, let nearest, let differences):
            var text = "\(store): no version of \(bundle) wrote this store (its entity version hashes match none)"
            if let nearest {
                text += "; the nearest is '\(nearest)':\n" + differences.map { "  - \($0)" }.joined(separator: "\n")
            }
            return text
        case .noModelCache(let store):
            return "\(store): the store carries no model (no Z_MODELCACHE content); give its model"
        case .unreadableModelCache(let store, let error):
            return "\(store): \(error)"
        case .modelCacheMismatch(let store, let differences):
            return "\(store): the store's cached model does not match its metadata:\n"
                + differences.map { "  - \($0)" }.joined(separator: "\n")
        case .sourceMismatch(let store, let differences):
            return "\(store): the store was not written by the migration's source model:\n"
                + differences.map { "  - \($0)" }.joined(separator: "\n")
        case .backwardMigration(let store, let from, let to):
            return "\(store): the store is at version '\(from)', newer than '\(to)'; migrations go forward only"
        case .notInferable(let from, let to, let changes):
            return "cannot migrate '\(from)' to '\(to)' without a mapping model:\n"
                + changes.map { "  - \($0)" }.joined(separator: "\n")
        case .abstractEntityHasObjects(let store, let entity, let version, let count):
            return "\(store): entity \(entity) is abstract in '\(version)', but the store holds \(count) object(s) of it, "
                + "which a migration cannot keep (an abstract entity has no objects); delete them, or make them objects "
                + "of a sub-entity, before migrating; nothing was written"
        case .missingValues(let store, let problems):
            return "\(store): objects lack values the new version requires:\n"
                + problems.map { "  - \($0)" }.joined(separator: "\n")
        case .constraintViolation(let store, let reason):
            return "\(store): existing objects break a uniqueness constraint of the new version: \(reason)"
        case .storeBusy(let store):
            return "\(store): another connection or process has the store open; close it and migrate again"
        case .sqlite(let store, let error):
            return "\(store): migration failed, the store is unchanged: \(error)"
        case .fileSystem(let store, let reason):
            return "\(store): migration failed, the store is unchanged: \(reason)"
        case .generatedModelNotInBundle(let generatedModel, let bundle):
            return "\(generatedModel) matches no version of \(bundle) (their entity version hashes differ); "
                + "run cdqi generate again on the bundle's current version"
        }
    }
}
