import CDQIPredicate
import CDQIStore

/// A managed object of the store seen through a ``ManagedObjectConvertible`` type: decode it into the
/// plain value, encode a value into it, and reach its relations as dynamic members
/// (`book.authors`, `book.cover`).
///
/// A wrapper is only valid inside the ``PersistentContainer/perform(action:)`` call that produced it:
/// the context (and its objects) is reset when the call ends. Decode what you need before returning.
///
/// `encode`, the to-one setters and the set operations do not throw (as upstream); a value the store
/// refuses (an integer out of its column's range, an object of another context) is recorded and
/// thrown by the enclosing `perform`, which then saves nothing.
@dynamicMemberLookup
public final class ManagedObject<PlainObject: ManagedObjectConvertible> {
    /// The store's object (module `CDQIStore`).
    public let instance: CDQIStore.ManagedObject
    @usableFromInline let session: ContextSession
    /// The decode plan worked out by the fetch that produced the wrapper (for the fetched entity), so
    /// that decoding each object of a fetch does not look it up again; `nil` when there was none.
    @usableFromInline let plan: DecodePlan<PlainObject>?

    @usableFromInline
    init(instance: CDQIStore.ManagedObject, session: ContextSession, plan: DecodePlan<PlainObject>? = nil) {
        self.instance = instance
        self.session = session
        self.plan = plan
    }

    // MARK: Decoding

    /// The plain value: `PlainObject()` with every mapped attribute read from the object.
    /// - Throws: ``AttributeError/badAttribute(_:)`` for a stored value that does not fit its property,
    ///   or the store's error when the object cannot be loaded.
    @inlinable
    public func decode() throws -> PlainObject {
        if let plan, plan.entity === instance.entity { return try plan.decode(instance) }
        return try session.plan(PlainObject.self, for: instance).decode(instance)
    }

    /// One attribute's value.
    /// - Throws: ``AttributeError/badAttribute(_:)``, ``RequestError/unmappedKeyPath(entity:keyPath:)``
    ///   or the store's error.
    public func decode<A: SupportedAttributeType>(_ keyPath: KeyPath<PlainObject, A>) throws -> A {
        let name = try PlainObject.attributeName(for: keyPath)
        return try Self.decode(A.self, try instance.storedValue(forKey: name), name: name)
    }

    /// One optional attribute's value (`nil` when the object has none).
    /// - Throws: ``AttributeError/badAttribute(_:)``, ``RequestError/unmappedKeyPath(entity:keyPath:)``
    ///   or the store's error.
    public func decode<A: SupportedAttributeType>(_ keyPath: KeyPath<PlainObject, A?>) throws -> A? {
        let name = try PlainObject.attributeName(for: keyPath)
        let stored = try instance.storedValue(forKey: name)
        return stored.isNull ? nil : try Self.decode(A.self, stored, name: name)
    }

    static func decode<A: SupportedAttributeType>(_ type: A.Type, _ stored: StoredValue, name: String) throws -> A {
        do {
            return try A.decode(stored: stored)
        } catch {
            throw AttributeError.badAttribute(.init(name: name, entity: PlainObject.entityName, originalError: error))
        }
    }

    // MARK: Encoding

    /// Writes every mapped attribute of `value` into the object.
    @discardableResult
    public func encode(_ value: PlainObject) -> Self {
        session.recording { try encodeThrowing(value) }
        return self
    }

    /// Writes one attribute.
    @discardableResult
    public func encode<A: SupportedAttributeType>(_ keyPath: KeyPath<PlainObject, A>, _ value: A) -> Self {
        session.recording {
            try instance.setStoredValue(value.storedPrimitive, forKey: try PlainObject.attributeName(for: keyPath))
        }
        return self
    }

    /// Writes one optional attribute (`nil` clears it).
    @discardableResult
    public func encode<A: SupportedAttributeType>(_ keyPath: KeyPath<PlainObject, A?>, _ value: A?) -> Self {
        session.recording {
            try instance.setStoredValue(value?.storedPrimitive ?? .null, forKey: try PlainObject.attributeName(for: keyPath))
        }
        return self
    }

    /// Writes every mapped attribute, throwing the store's refusal.
    func encodeThrowing(_ value: PlainObject) throws {
        for attribute in PlainObject.attributes {
            try instance.setStoredValue(attribute.storedValue(of: value), forKey: attribute.name)
        }
    }
}
