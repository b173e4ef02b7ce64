import CDQIModel
import Foundation

extension StoreMetadata {
    /// Reads the metadata of the store at `url` without a model and without writing anything.
    ///
    /// A store in WAL mode is read through its `-wal` file, so the metadata is the committed one.
    /// - Throws: ``StoreError/notACoreDataStore(path:reason:)`` when the file has no `Z_METADATA`,
    ///   ``StoreError/unreadableMetadata(path:reason:)`` when its property list cannot be read.
    public static func read(from url: URL) throws(StoreError) -> StoreMetadata {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw .notACoreDataStore(path: path, reason: "no such file")
        }
        do {
            let connection = try SQLiteConnection.openForReading(path: path)
            let tables = try connection.prepareUncached(
                "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'Z_METADATA'")
            guard try tables.step(), tables.int64(0) == 1 else {
                throw StoreError.notACoreDataStore(path: path, reason: "it has no Z_METADATA table")
            }
            let row = try connection.prepareUncached("SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1")
            guard try row.step(), !row.isNull(0), !row.isNull(1) else {
                throw StoreError.unreadableMetadata(path: path, reason: "Z_METADATA has no property list")
            }
            return try StoreMetadata.read(uuid: row.string(0), plist: row.data(1), path: path)
        } catch let error as StoreError {
            throw error
        } catch let error as SQLiteError {
            throw .sqlite(error)
        } catch {
            throw .notACoreDataStore(path: path, reason: "\(error)")
        }
    }

    /// Whether a store with this metadata can be opened with `model` without migrating: Core Data's
    /// compatibility check, equality of the entity version hashes (reference `coredata-migration.md` §1.1).
    public func isCompatible(with model: ManagedObjectModel) -> Bool {
        differences(from: model, describing: { _ in [] }).isEmpty
    }

    /// How the store's entity version hashes differ from `model`'s, one sentence per entity; empty when
    /// ``isCompatible(with:)``.
    public func incompatibilities(with model: ManagedObjectModel) -> [String] {
        differences(from: model, describing: { _ in [] })
    }
}
