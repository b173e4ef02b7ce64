import CDQIModel
import Foundation

extension ManagedObjectModel {
    /// The model the store at `url` carries in `Z_MODELCACHE`, checked against the store's metadata: its
    /// entity version hashes equal the store's, so the store opens with it and nothing else.
    ///
    /// ```swift
    /// let model = try ManagedObjectModel(storeModelCacheAt: storeURL)
    /// let container = try PersistentContainer(model: model, url: storeURL)
    /// ```
    /// - Throws: ``MigrationError/noModelCache(store:)`` for a store without one (framework ≤ 519),
    ///   ``MigrationError/unreadableModelCache(store:_:)``, ``MigrationError/modelCacheMismatch(store:differences:)``,
    ///   or ``MigrationError/store(_:)`` when the file is not a readable store.
    public init(storeModelCacheAt url: URL) throws(MigrationError) {
        let metadata: StoreMetadata
        do {
            metadata = try StoreMetadata.read(from: url)
        } catch {
            throw .store(error)
        }
        guard let blob = try Self.modelCacheBlob(at: url) else { throw .noModelCache(store: url.path) }
        var model: ManagedObjectModel
        do {
            model = try ManagedObjectModel(modelCache: blob)
        } catch {
            throw .unreadableModelCache(store: url.path, error)
        }
        let differences = metadata.incompatibilities(with: model)
        guard differences.isEmpty else { throw .modelCacheMismatch(store: url.path, differences: differences) }
        model.versionName = nil
        self = model
    }

    /// Whether the store at `url` carries a model (a non-empty `Z_MODELCACHE.Z_CONTENT`).
    public static func storeCarriesModel(at url: URL) -> Bool {
        ((try? modelCacheBlob(at: url)) ?? nil) != nil
    }

    /// The `Z_MODELCACHE` blob; `nil` when there is no table, no row, or NULL.
    static func modelCacheBlob(at url: URL) throws(MigrationError) -> [UInt8]? {
        do {
            let connection = try SQLiteConnection.openForReading(path: url.path)
            let table = try connection.prepareUncached(
                "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'Z_MODELCACHE'")
            guard try table.step(), table.int64(0) == 1 else { return nil }
            let row = try connection.prepareUncached("SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1")
            guard try row.step(), !row.isNull(0) else { return nil }
            let bytes = [UInt8](row.data(0))
            return bytes.isEmpty ? nil : bytes
        } catch {
            throw .store(.sqlite(error))
        }
    }
}

extension PersistentContainer {
    /// Opens the store at `url` with the model it carries (`Z_MODELCACHE`), with no model file at all.
    ///
    /// - Throws: ``MigrationError`` when the store carries no usable model or cannot be opened.
    public convenience init(storeWithCachedModelAt url: URL) throws(MigrationError) {
        let model = try ManagedObjectModel(storeModelCacheAt: url)
        do {
            try self.init(model: model, url: url)
        } catch {
            throw .store(error)
        }
    }
}
