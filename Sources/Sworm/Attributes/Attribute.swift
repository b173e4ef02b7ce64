import CDQIPredicate

/// An attribute of a ``ManagedObjectConvertible`` type: a writable key path of the type and the name
/// of the entity's attribute it maps to. Two attributes are equal when their key paths are.
///
/// ```swift
/// static let attributes: Set<Attribute<Book>> = [.init(\.id, "id"), .init(\.name, "name")]
/// ```
///
/// An attribute is immutable once made; it is shared between threads (key path objects are
/// immutable), hence `@unchecked Sendable`.
public final class Attribute<PlainObject: ManagedObjectConvertible>: Hashable, @unchecked Sendable {
    /// The attribute's name in the model.
    public let name: String
    /// The key path of the mapped property.
    let keyPath: AnyKeyPath
    /// Reads and writes the property as a stored value.
    private let accessor: any AttributeAccessor<PlainObject>

    /// Maps a property of an attribute type to the entity's attribute `name`.
    public init<A: SupportedAttributeType>(_ keyPath: WritableKeyPath<PlainObject, A>, _ name: String) {
        self.name = name
        self.keyPath = keyPath
        accessor = RequiredAccessor(keyPath: keyPath)
    }

    /// Maps an optional property of an attribute type to the entity's attribute `name`; `nil` is
    /// stored as no value.
    public init<A: SupportedAttributeType>(_ keyPath: WritableKeyPath<PlainObject, A?>, _ name: String) {
        self.name = name
        self.keyPath = keyPath
        accessor = OptionalAccessor(keyPath: keyPath)
    }

    /// The property's value in `object`, as the store holds it.
    func storedValue(of object: PlainObject) -> StoredValue {
        accessor.storedValue(of: object)
    }

    /// Sets the property in `object` from a stored value.
    /// - Throws: ``AttributeError/badAttribute(_:)`` naming the attribute, the entity and, in its
    ///   original error, the value.
    func decode(_ value: StoredValue, into object: inout PlainObject) throws(AttributeError) {
        do {
            try accessor.decode(value, into: &object)
        } catch {
            throw .badAttribute(.init(name: name, entity: PlainObject.entityName, originalError: error))
        }
    }

    public static func == (left: Attribute, right: Attribute) -> Bool { left.keyPath == right.keyPath }

    public func hash(into hasher: inout Hasher) { hasher.combine(keyPath) }
}

/// Reads and writes one property of a plain object as a stored value.
private protocol AttributeAccessor<PlainObject> {
    associatedtype PlainObject
    func storedValue(of object: PlainObject) -> StoredValue
    func decode(_ value: StoredValue, into object: inout PlainObject) throws
}

/// A non-optional property: a missing stored value is bad input.
private struct RequiredAccessor<PlainObject, Value: SupportedAttributeType>: AttributeAccessor {
    let keyPath: WritableKeyPath<PlainObject, Value>

    func storedValue(of object: PlainObject) -> StoredValue {
        object[keyPath: keyPath].storedPrimitive
    }

    func decode(_ value: StoredValue, into object: inout PlainObject) throws {
        object[keyPath: keyPath] = try Value.decode(stored: value)
    }
}

/// An optional property: `nil` and no stored value stand for each other.
private struct OptionalAccessor<PlainObject, Value: SupportedAttributeType>: AttributeAccessor {
    let keyPath: WritableKeyPath<PlainObject, Value?>

    func storedValue(of object: PlainObject) -> StoredValue {
        object[keyPath: keyPath]?.storedPrimitive ?? .null
    }

    func decode(_ value: StoredValue, into object: inout PlainObject) throws {
        object[keyPath: keyPath] = value.isNull ? nil : try Value.decode(stored: value)
    }
}
