import CDQIModel
import Foundation

/// The contents of a store's `Z_METADATA` row: its UUID and the property list Core Data keeps there.
public struct StoreMetadata: Sendable, Hashable {
    /// The store's UUID (upper-case, hyphenated): the host part of object-ID URIs.
    public var uuid: String
    /// The version hash of each entity the store was written for (`NSStoreModelVersionHashes`).
    public var entityHashes: [String: Data]
    /// `NSStoreModelVersionHashesDigest`, when present.
    public var digest: String?
    /// `NSStoreModelVersionChecksumKey`, when present.
    public var checksum: String?
    /// The model's version identifiers (`NSStoreModelVersionIdentifiers`).
    public var versionIdentifiers: [String]
    /// `NSPersistenceFrameworkVersion`: Apple's framework version for stores Apple wrote.
    public var frameworkVersion: Int?

    /// The framework version this package writes: the newest one whose store layout it reproduces.
    public static let writtenFrameworkVersion = 1344

    /// Metadata for a new store of `model`.
    public init(model: ManagedObjectModel, uuid: UUID = UUID()) {
        let hashes = ModelVersionHashes(model: model)
        self.uuid = uuid.uuidString
        entityHashes = hashes.entityHashes
        digest = hashes.digest
        checksum = hashes.checksum
        versionIdentifiers = model.versionIdentifier.map { [$0] } ?? [""]
        frameworkVersion = Self.writtenFrameworkVersion
    }

    /// Reads the metadata from a `Z_METADATA` row.
    package init(uuid: String, plist: Data, path: String) throws(StoreMetadataError) {
        let decoded: Any
        do {
            decoded = try PropertyListSerialization.propertyList(from: plist, format: nil)
        } catch {
            throw StoreMetadataError(path: path, reason: "Z_PLIST is not a property list")
        }
        guard let dictionary = decoded as? [String: Any] else {
            throw StoreMetadataError(path: path, reason: "Z_PLIST is not a dictionary")
        }
        guard let hashes = dictionary["NSStoreModelVersionHashes"] as? [String: Data] else {
            throw StoreMetadataError(path: path, reason: "Z_PLIST has no NSStoreModelVersionHashes")
        }
        self.uuid = uuid
        entityHashes = hashes
        digest = dictionary["NSStoreModelVersionHashesDigest"] as? String
        checksum = dictionary["NSStoreModelVersionChecksumKey"] as? String
        versionIdentifiers = dictionary["NSStoreModelVersionIdentifiers"] as? [String] ?? []
        frameworkVersion = (dictionary["NSPersistenceFrameworkVersion"] as? NSNumber)?.intValue
    }

    /// The binary property list Core Data stores in `Z_PLIST`.
    package func propertyList() throws(StoreMetadataError) -> Data {
        var dictionary: [String: Any] = [
            "NSStoreType": "SQLite",
            "NSStoreModelVersionHashes": entityHashes,
            "NSStoreModelVersionHashesVersion": 3,
            "NSStoreModelVersionIdentifiers": versionIdentifiers,
            "_NSAutoVacuumLevel": "2",
        ]
        if let digest { dictionary["NSStoreModelVersionHashesDigest"] = digest }
        if let checksum { dictionary["NSStoreModelVersionChecksumKey"] = checksum }
        if let frameworkVersion { dictionary["NSPersistenceFrameworkVersion"] = frameworkVersion }
        do {
            return try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0)
        } catch {
            throw StoreMetadataError(path: "", reason: "cannot encode the metadata: \(error)")
        }
    }

    /// How the store's entity hashes differ from a model's, one sentence per difference; empty when
    /// they match. Entities whose hash cannot be computed with certainty (derived attributes) are
    /// compared by name only.
    package func differences(
        from model: ManagedObjectModel, describing describe: (String) throws -> [String] = { _ in [] }
    ) rethrows -> [String] {
        let computed = ModelVersionHashes(model: model)
        let uncertain = Set(computed.entitiesWithUncertainHashes)
        var differences: [String] = []
        for name in computed.entityHashes.keys.sorted() where entityHashes[name] == nil {
            differences.append("entity '\(name)' is in the model but not in the store")
        }
        for name in entityHashes.keys.sorted() where computed.entityHashes[name] == nil {
            differences.append("entity '\(name)' is in the store but not in the model")
        }
        for (name, hash) in computed.entityHashes.sorted(by: { $0.key < $1.key })
        where !uncertain.contains(name) && entityHashes[name].map({ $0 != hash }) == true {
            let details = try describe(name)
            differences.append(
                details.isEmpty
                    ? "entity '\(name)' differs (its attributes, relationships or constraints changed)"
                    : "entity '\(name)' differs: " + details.joined(separator: "; "))
        }
        return differences
    }

}
