import CDQISQL
import Foundation

extension StoreMetadata {
    /// Reads the metadata from a `Z_METADATA` row of the SQLite store at `path`; unreadable metadata is
    /// ``StoreError/unreadableMetadata(path:reason:)``.
    package static func read(uuid: String, plist: Data, path: String) throws(StoreError) -> StoreMetadata {
        do {
            return try StoreMetadata(uuid: uuid, plist: plist, path: path)
        } catch {
            throw .unreadableMetadata(path: error.path, reason: error.reason)
        }
    }

    /// The property list for `Z_METADATA.Z_PLIST`; a failure to encode it is
    /// ``StoreError/unreadableMetadata(path:reason:)``.
    package func storePropertyList() throws(StoreError) -> Data {
        do {
            return try propertyList()
        } catch {
            throw .unreadableMetadata(path: error.path, reason: error.reason)
        }
    }
}
