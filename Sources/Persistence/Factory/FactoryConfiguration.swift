import CDQIModel
import Foundation

/// The factory's static configuration (upstream's class-level `storePath`, `storeType`,
/// `storeOptions`, and this port's model, documents directory and seed store), behind a lock.
final class FactoryConfiguration: @unchecked Sendable {
    static let shared = FactoryConfiguration()

    private let lock = NSLock()
    // All guarded by `lock`.
    private var storePathValue: String?
    private var storeTypeValue: String?
    private var storeOptionsValue: [String: Any]?
    private var modelValue: ManagedObjectModel?
    private var modelURLValue: URL?
    private var documentsDirectoryValue: URL?
    private var seedStoreURLValue: URL?

    var storePath: String? {
        get { lock.withLock { storePathValue } }
        set { lock.withLock { storePathValue = newValue } }
    }
    var storeType: String? {
        get { lock.withLock { storeTypeValue } }
        set { lock.withLock { storeTypeValue = newValue } }
    }
    var storeOptions: [String: Any]? {
        get { lock.withLock { storeOptionsValue } }
        set { lock.withLock { storeOptionsValue = newValue } }
    }
    var model: ManagedObjectModel? {
        get { lock.withLock { modelValue } }
        set { lock.withLock { modelValue = newValue } }
    }
    var modelURL: URL? {
        get { lock.withLock { modelURLValue } }
        set { lock.withLock { modelURLValue = newValue } }
    }
    var documentsDirectory: URL? {
        get { lock.withLock { documentsDirectoryValue } }
        set { lock.withLock { documentsDirectoryValue = newValue } }
    }
    var seedStoreURL: URL? {
        get { lock.withLock { seedStoreURLValue } }
        set { lock.withLock { seedStoreURLValue = newValue } }
    }
}
