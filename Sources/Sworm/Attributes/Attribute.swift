import CDQIPredicate

/// An attribute of a ``ManagedObjectConvertible`` type: a writable key path of the type and the name
/// of the entity's attribute it maps to. Two attributes are equal when their key paths are.
///
/// ```swift
/// static let attributes: Set<Attribute<Book>> = [.init(\.id, "id"), .init(\.name, "name")]
/// ```
///
/// An attribute is immutable once made and shared between threads (key path objects are immutable,
/// and its two closures only read the key path), hence `@unchecked Sendable`.
public final class Attribute<PlainObject: ManagedObjectConvertible>: Hashable, @unchecked Sendable {
    /// The attribute's name in the model.
    public let name: String
    /// The key path of the mapped property.
    @usableFromInline let keyPath: AnyKeyPath
    /// Reads the property as a stored value.
    @usableFromInline let encoder: (PlainObject) -> StoredValue
    /// Sets the property from a stored value (throwing ``AttributeError/badInput(_:)`` or a custom
    /// type's error).
    @usableFromInline let decoder: (StoredValue, inout PlainObject) throws -> Void
    /// The direct path for the values the store usually holds (see ``SlotDecoder``); `decoder`
    /// handles the rest.
    @usableFromInline let slot: SlotDecoder

    // The initializers are inlinable so that the closures are compiled where the attributes are
    // declared, for the concrete types: decoding then runs specialized code, not generic code. For a
    // stored property of a struct, decoding writes at the property's offset (see `write`).

    /// Maps a property of an attribute type to the entity's attribute `name`.
    @inlinable
    public init<A: SupportedAttributeType>(_ keyPath: WritableKeyPath<PlainObject, A>, _ name: String) {
        self.name = name
        self.keyPath = keyPath
        encoder = { object in object[keyPath: keyPath].storedPrimitive }
        let offset = MemoryLayout<PlainObject>.offset(of: keyPath)
        slot = SlotDecoder(A.self, isOptional: false, offset: offset)
        if let offset {
            decoder = { stored, object in
                let value = try A.decode(stored: stored)
                Self.write(value, at: offset, in: &object)
            }
        } else {
            decoder = { stored, object in object[keyPath: keyPath] = try A.decode(stored: stored) }
        }
    }

    /// Maps an optional property of an attribute type to the entity's attribute `name`; `nil` is
    /// stored as no value.
    @inlinable
    public init<A: SupportedAttributeType>(_ keyPath: WritableKeyPath<PlainObject, A?>, _ name: String) {
        self.name = name
        self.keyPath = keyPath
        encoder = { object in object[keyPath: keyPath]?.storedPrimitive ?? .null }
        let offset = MemoryLayout<PlainObject>.offset(of: keyPath)
        slot = SlotDecoder(A.self, isOptional: true, offset: offset)
        if let offset {
            decoder = { stored, object in
                let value: A? = stored.isNull ? nil : try A.decode(stored: stored)
                Self.write(value, at: offset, in: &object)
            }
        } else {
            decoder = { stored, object in object[keyPath: keyPath] = stored.isNull ? nil : try A.decode(stored: stored) }
        }
    }

    /// Assigns the stored property of type `Value` at byte `offset` of `object`: what a key-path
    /// assignment does, without the key path machinery (decoding a struct writes every attribute).
    /// `offset` comes from `MemoryLayout.offset(of:)` of a writable key path to that property, which
    /// is non-nil only for a stored property held inline in the struct, so the memory there is an
    /// initialized `Value`, and assigning through the pointer releases the old value as `=` does.
    @inlinable
    static func write<Value>(_ value: Value, at offset: Int, in object: inout PlainObject) {
        withUnsafeMutablePointer(to: &object) { pointer in
            UnsafeMutableRawPointer(pointer).advanced(by: offset).assumingMemoryBound(to: Value.self).pointee = value
        }
    }

    /// The property's value in `object`, as the store holds it.
    func storedValue(of object: PlainObject) -> StoredValue {
        encoder(object)
    }

    /// Sets the property in `object` from a stored value.
    /// - Throws: ``AttributeError/badAttribute(_:)`` naming the attribute, the entity and, in its
    ///   original error, the value.
    @inlinable
    func decode(_ value: StoredValue, into object: inout PlainObject) throws(AttributeError) {
        do {
            try decoder(value, &object)
        } catch {
            throw .badAttribute(.init(name: name, entity: PlainObject.entityName, originalError: error))
        }
    }

    public static func == (left: Attribute, right: Attribute) -> Bool { left.keyPath == right.keyPath }

    public func hash(into hasher: inout Hasher) { hasher.combine(keyPath) }
}
