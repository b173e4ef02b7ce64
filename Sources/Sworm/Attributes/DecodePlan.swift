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
    /// The attributes' direct decoders, in the same order (read once here, not through each attribute).
    @usableFromInline let slots: [SlotDecoder]
    /// The attributes' decoders, in the same order, for what the direct ones leave.
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
        slots = attributes.map(\.slot)
        decoders = attributes.map(\.decoder)
    }

    /// Decodes `object` (of this plan's entity): each attribute through its direct decoder, or its
    /// decoder when the direct one declines.
    /// - Throws: ``AttributeError/badAttribute(_:)``, or the store's error when the object cannot be
    ///   loaded (a deleted row, a context that was reset).
    @inlinable
    func decode(_ object: CDQIStore.ManagedObject) throws -> P {
        if object.isFault, let first = attributes.first {
            // Loads the object, throwing what loading throws (or the first attribute's unknown key).
            _ = try object.storedValue(forKey: first.name)
        }
        let values = try object.cdqiAttributeValues()
        var value = P()
        var position = 0
        let count = slots.count
        while position < count {
            let index = indexes[position]
            if index >= 0, index < values.count {
                if !slots[position].decode(values[index], into: &value) {
                    try decode(values[index], at: position, into: &value)
                }
            } else {
                try decode(try object.storedValue(forKey: attributes[position].name), at: position, into: &value)
            }
            position += 1
        }
        return value
    }

    /// Decodes one attribute through its decoder.
    /// - Throws: ``AttributeError/badAttribute(_:)`` naming the attribute and the entity.
    @inlinable
    func decode(_ stored: StoredValue, at position: Int, into value: inout P) throws {
        do {
            try decoders[position](stored, &value)
        } catch {
            throw AttributeError.badAttribute(
                .init(name: attributes[position].name, entity: P.entityName, originalError: error))
        }
    }
}
