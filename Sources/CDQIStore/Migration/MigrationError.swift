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

    /// Apple's `NSCocoaErrorDomain` code for the problem.
    public var code: Int {
        switch self {
        case .store: return 134_180
        case .model: return 134_130
        case .noMatchingVersion, .noModelCache, .unreadableModelCache, .modelCacheMismatch: return 134_130
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
        }
    }
}
