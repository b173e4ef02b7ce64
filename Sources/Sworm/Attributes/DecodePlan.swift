import CDQIModel
import CDQIPredicate
import CDQIStore

/// Where each attribute of `P` lives in the objects of one entity: its position in the entity's
/// attribute list (inherited attributes first, each name once — the store's layout, the contract the
/// generated accessors rely on), so decoding reads slots instead of looking names up.
///
/// A class, so that the wrappers of a fetch share one plan for the price of one reference.
@usableFromInline
final class DecodePlan<P: ManagedObjectConvertible> {
    /// The entity the positions are for.
    @usableFromInline let entity: EntityLayout
    /// The attributes, in name order.
    @usableFromInline let attributes: [Attribute<P>]
    /// Each attribute's position in the entity's attribute list, or -1 when the entity has no
    /// attribute of that name (reading it by name then throws the store's unknown-key error).
    @usableFromInline let indexes: [Int]
    /// The attributes' decoders, in the same order (read once here, not through each attribute).
    @usableFromInline let decoders: [(StoredValue, inout P) throws -> Void]

    init(entity: EntityLayout, model: ManagedObjectModel?) {
        self.entity = entity
        var positions: [String: Int] = [:]
        if let model {
            for description in model.allAttributes(of: entity.entity) where positions[description.name] == nil {
                positions[description.name] = positions.count
            }
        }
        attributes = P.attributes.sorted { $0.name < $1.name }
        indexes = attributes.map { positions[$0.name] ?? -1 }
        decoders = attributes.map(\.decoder)
    }

    /// Decodes `object` (of this plan's entity).
    /// - Throws: ``AttributeError/badAttribute(_:)``, or the store's error when the object cannot be
    ///   loaded (a deleted row, a context that was reset).
    @inlinable
    func decode(_ object: CDQIStore.ManagedObject) throws -> P {
        var value = P()
        if object.isFault, let first = attributes.first {
            // Loads the object, throwing what loading throws; the slots below are then plain reads.
            _ = try object.storedValue(forKey: first.name)
        }
        var position = 0
        let count = decoders.count
        while position < count {
            let index = indexes[position]
            let stored = index >= 0
                ? object.cdqiAttributeValue(at: index) : try object.storedValue(forKey: attributes[position].name)
            do {
                try decoders[position](stored, &value)
            } catch {
                throw AttributeError.badAttribute(
                    .init(name: attributes[position].name, entity: P.entityName, originalError: error))
            }
            position += 1
        }
        return value
    }
}
