import Foundation

/// The version hashes Core Data stores in a SQLite store's metadata, computed from a model the way
/// Apple's Core Data computes them (`../shared/reference/coredata-version-hash.md`), so that a store
/// written here is recognised by Apple's Core Data as written for the same model, and a store written
/// there can be checked against a model here.
public struct ModelVersionHashes: Sendable, Hashable {
    /// Each entity's version hash (32 bytes): `NSStoreModelVersionHashes`.
    public var entityHashes: [String: Data]
    /// `NSStoreModelVersionHashesDigest`: base64 of SHA-512 over the entity names and hashes.
    public var digest: String
    /// `NSStoreModelVersionChecksumKey`: base64 of SHA-256 over the entity hashes.
    public var checksum: String
    /// Entities whose hash may differ from Apple's, because they hold a derived attribute, whose
    /// contribution to the hash is not known.
    public var entitiesWithUncertainHashes: [String]

    /// Computes the hashes of every entity of `model`.
    public init(model: ManagedObjectModel) {
        var computer = Computer(model: model)
        var hashes: [String: [UInt8]] = [:]
        for entity in model.entities { hashes[entity.name] = computer.hash(of: entity) }
        let names = hashes.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        entityHashes = hashes.mapValues { Data($0) }
        digest = Data(SHA2.sha512(names.flatMap { Array($0.utf8) + (hashes[$0] ?? []) })).base64EncodedString()
        checksum = Data(SHA2.sha256(names.flatMap { hashes[$0] ?? [] })).base64EncodedString()
        entitiesWithUncertainHashes = model.entities
            .filter { model.allAttributes(of: $0).contains { $0.isDerived && !$0.isTransient } }
            .map(\.name)
    }

    /// Computes entity hashes, each once (a sub-entity's hash includes its parent's).
    private struct Computer {
        let model: ManagedObjectModel
        var memo: [String: [UInt8]] = [:]

        init(model: ManagedObjectModel) {
            self.model = model
        }

        mutating func hash(of entity: EntityDescription) -> [UInt8] {
            if let known = memo[entity.name] { return known }
            var data = Array(entity.name.utf8)
            data.append(entity.isAbstract ? 1 : 0)
            if let parentName = entity.parentEntityName, let parent = model.entity(named: parentName),
                parent.name != entity.name
            {
                memo[entity.name] = []  // a cycle (refused by validation) must not recurse forever
                data += hash(of: parent)
            }
            var properties: [(name: String, hash: [UInt8])] = []
            for attribute in model.allAttributes(of: entity) where !attribute.isTransient {
                properties.append((attribute.name, Self.hash(of: attribute)))
            }
            for relationship in model.allRelationships(of: entity) where !relationship.isTransient {
                properties.append((relationship.name, Self.hash(of: relationship)))
            }
            // Fetched properties are transient: never hashed.
            properties.sort { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
            for property in properties { data += property.hash }
            for constraint in entity.uniquenessConstraints {
                data += Array(constraint.properties.joined(separator: ".").utf8)
            }
            if let modifier = entity.versionHashModifier { data += Array(modifier.utf8) }
            let result = SHA2.sha256(data)
            memo[entity.name] = result
            return result
        }

        private static func base(name: String, isOptional: Bool, isTransient: Bool, modifier: String?) -> [UInt8] {
            SHA2.sha256(Array(name.utf8) + [isOptional ? 1 : 0, isTransient ? 1 : 0] + Array((modifier ?? "").utf8))
        }

        static func hash(of attribute: AttributeDescription) -> [UInt8] {
            var data = base(
                name: attribute.name, isOptional: attribute.isOptional, isTransient: attribute.isTransient,
                modifier: attribute.versionHashModifier)
            data += littleEndian(UInt32(attribute.type.code))
            if attribute.preservesValueInHistoryOnDeletion { data.append(1) }
            return SHA2.sha256(data)
        }

        static func hash(of relationship: RelationshipDescription) -> [UInt8] {
            var data = base(
                name: relationship.name, isOptional: relationship.isOptional, isTransient: relationship.isTransient,
                modifier: relationship.versionHashModifier)
            data += Array(relationship.destinationEntityName.utf8)
            data += Array((relationship.inverseName ?? "").utf8)
            let maximum = relationship.maxCount ?? (relationship.isToMany ? 0 : 1)
            data += littleEndian(UInt32(bitPattern: Int32(clamping: maximum)))
            data += littleEndian(UInt32(bitPattern: Int32(clamping: relationship.minCount ?? 0)))
            if relationship.isOrdered { data += [1, 0] }
            return SHA2.sha256(data)
        }

        private static func littleEndian(_ value: UInt32) -> [UInt8] {
            (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) }
        }
    }
}
