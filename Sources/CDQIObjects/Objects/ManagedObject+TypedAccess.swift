import CDQIPredicate
import Foundation

/// The typed, non-throwing accessors that the entity classes `cdqi` generates are built on.
///
/// Generated code knows, from the model, where each property lives in an object's slots (the
/// attribute's position in ``EntityLayout``'s attribute list, the relationship's in its relationship
/// list, inherited properties first), so an access is an array read: no string key, no dictionary
/// lookup, no `Any`:
/// ```swift
/// final class Employee: ManagedObject {
///     var lastName: String {
///         get { cdqiString(at: 2) ?? "" }
///         set { cdqiSetString(newValue, at: 2) }
///     }
/// }
/// ```
/// The indexes are only right for the model the class was generated from; register generated classes
/// through their generated model (``GeneratedModel``), which checks that the coordinator's model is
/// that model. A wrong index never crashes: it reads as unset and is recorded as an error.
///
/// **When an access fails.** Generated properties cannot throw (Core Data raises an exception
/// instead). When a fault cannot be fulfilled (its row was deleted by another context) or a change
/// is refused (an object of another context), the getter returns the unset value (`nil`, or the
/// property type's zero for a non-optional property), the setter changes nothing, and the
/// ``ManagedObjectError`` is appended to the context's ``ManagedObjectContext/accessorErrors``. An
/// object that is no longer registered with a context (after `reset()`) has nowhere to record the
/// error: its getters return the unset value. Use ``value(forKey:)`` and ``setValue(_:forKey:)`` where
/// failures must throw.
///
/// Setting a relationship updates its inverse exactly as ``setValue(_:forKey:)`` does (it runs the
/// same code).
extension ManagedObject {
    // MARK: Attributes

    /// The stored value of the attribute at `index` in the entity's attribute list (loading the object
    /// first); ``StoredValue/null`` when unset or when the access fails (see the type's notes).
    public func cdqiAttributeValue(at index: Int) -> StoredValue {
        if !isLoaded {
            do {
                try willAccess()
            } catch {
                cdqiRecord(error)
                return .null
            }
        }
        guard index >= 0, index < attributeValues.count else {
            cdqiRecord(.unknownKey(entity: entity.name, key: "attribute #\(index)"))
            return .null
        }
        return attributeValues[index]
    }

    /// The stored values of all the entity's attributes, in its attribute list's order (loading the
    /// object first): what ``cdqiAttributeValue(at:)`` reads one at a time, for code that reads many
    /// attributes of an object at once (the array is the object's own, shared, not copied). A later
    /// change to the object does not show in the returned array.
    /// - Throws: the ``ManagedObjectError`` of loading the object (as ``storedValue(forKey:)`` does).
    public func cdqiAttributeValues() throws(ManagedObjectError) -> [StoredValue] {
        try willAccess()
        return attributeValues
    }

    /// Sets the attribute at `index` to a stored value, as ``setStoredValue(_:forKey:)`` does (the value
    /// must fit the attribute's type; generated code passes the kind the type takes). A failure changes
    /// nothing and is recorded (see the type's notes).
    public func cdqiSetAttributeValue(_ value: StoredValue, at index: Int) {
        do {
            try willAccess()
        } catch {
            cdqiRecord(error)
            return
        }
        guard index >= 0, index < attributeValues.count else {
            cdqiRecord(.unknownKey(entity: entity.name, key: "attribute #\(index)"))
            return
        }
        writeAttribute(value, at: index)
        markChanged()
    }

    /// A String attribute.
    public func cdqiString(at index: Int) -> String? {
        if case .string(let value) = cdqiAttributeValue(at: index) { return value }
        return nil
    }

    /// An Integer 16 attribute.
    public func cdqiInt16(at index: Int) -> Int16? {
        cdqiInteger(at: index).flatMap { Int16(exactly: $0) }
    }

    /// An Integer 32 attribute.
    public func cdqiInt32(at index: Int) -> Int32? {
        cdqiInteger(at: index).flatMap { Int32(exactly: $0) }
    }

    /// An Integer 64 attribute.
    public func cdqiInt64(at index: Int) -> Int64? {
        cdqiInteger(at: index)
    }

    /// A Double attribute.
    public func cdqiDouble(at index: Int) -> Double? {
        switch cdqiAttributeValue(at: index) {
        case .double(let value): return value
        case .integer(let value): return Double(value)
        case .decimal(let value): return StoredValue.decimalAsDouble(value)
        default: return nil
        }
    }

    /// A Float attribute.
    public func cdqiFloat(at index: Int) -> Float? {
        cdqiDouble(at: index).map(Float.init)
    }

    /// A Decimal attribute.
    public func cdqiDecimal(at index: Int) -> Decimal? {
        switch cdqiAttributeValue(at: index) {
        case .decimal(let value): return value
        case .integer(let value): return Decimal(value)
        case .double(let value): return Decimal(string: String(value)) ?? Decimal(value)
        default: return nil
        }
    }

    /// A Boolean attribute.
    public func cdqiBool(at index: Int) -> Bool? {
        switch cdqiAttributeValue(at: index) {
        case .bool(let value): return value
        case .integer(let value): return value != 0
        default: return nil
        }
    }

    /// A Date attribute.
    public func cdqiDate(at index: Int) -> Date? {
        if case .date(let seconds) = cdqiAttributeValue(at: index) { return Date(timeIntervalSinceReferenceDate: seconds) }
        return nil
    }

    /// A Binary Data (or Transformable, as its transformed data) attribute.
    public func cdqiData(at index: Int) -> Data? {
        if case .data(let value) = cdqiAttributeValue(at: index) { return value }
        return nil
    }

    /// A UUID attribute.
    public func cdqiUUID(at index: Int) -> UUID? {
        if case .uuid(let value) = cdqiAttributeValue(at: index) { return value }
        return nil
    }

    /// A URI attribute.
    public func cdqiURL(at index: Int) -> URL? {
        if case .uri(let value) = cdqiAttributeValue(at: index) { return value }
        return nil
    }

    /// Sets a String attribute (`nil` clears it).
    public func cdqiSetString(_ value: String?, at index: Int) {
        cdqiSetAttributeValue(value.map(StoredValue.string) ?? .null, at: index)
    }

    /// Sets an Integer 16 attribute.
    public func cdqiSetInt16(_ value: Int16?, at index: Int) {
        cdqiSetAttributeValue(value.map { .integer(Int64($0)) } ?? .null, at: index)
    }

    /// Sets an Integer 32 attribute.
    public func cdqiSetInt32(_ value: Int32?, at index: Int) {
        cdqiSetAttributeValue(value.map { .integer(Int64($0)) } ?? .null, at: index)
    }

    /// Sets an Integer 64 attribute.
    public func cdqiSetInt64(_ value: Int64?, at index: Int) {
        cdqiSetAttributeValue(value.map(StoredValue.integer) ?? .null, at: index)
    }

    /// Sets a Double attribute.
    public func cdqiSetDouble(_ value: Double?, at index: Int) {
        cdqiSetAttributeValue(value.map(StoredValue.double) ?? .null, at: index)
    }

    /// Sets a Float attribute (stored as the Double nearest to the Float, as ``setValue(_:forKey:)`` does).
    public func cdqiSetFloat(_ value: Float?, at index: Int) {
        cdqiSetAttributeValue(value.map { .double(Double($0)) } ?? .null, at: index)
    }

    /// Sets a Decimal attribute.
    public func cdqiSetDecimal(_ value: Decimal?, at index: Int) {
        cdqiSetAttributeValue(value.map(StoredValue.decimal) ?? .null, at: index)
    }

    /// Sets a Boolean attribute.
    public func cdqiSetBool(_ value: Bool?, at index: Int) {
        cdqiSetAttributeValue(value.map(StoredValue.bool) ?? .null, at: index)
    }

    /// Sets a Date attribute.
    public func cdqiSetDate(_ value: Date?, at index: Int) {
        cdqiSetAttributeValue(value.map { StoredValue.date($0) } ?? .null, at: index)
    }

    /// Sets a Binary Data (or Transformable) attribute.
    public func cdqiSetData(_ value: Data?, at index: Int) {
        cdqiSetAttributeValue(value.map(StoredValue.data) ?? .null, at: index)
    }

    /// Sets a UUID attribute.
    public func cdqiSetUUID(_ value: UUID?, at index: Int) {
        cdqiSetAttributeValue(value.map(StoredValue.uuid) ?? .null, at: index)
    }

    /// Sets a URI attribute.
    public func cdqiSetURL(_ value: URL?, at index: Int) {
        cdqiSetAttributeValue(value.map(StoredValue.uri) ?? .null, at: index)
    }

    /// The integer attribute at `index`, read in its slot when the object is loaded (as
    /// ``cdqiAttributeValue(at:)`` and ``cdqiInteger(_:)`` read it otherwise): copying the stored value
    /// out of the slot, then destroying the copy, cost more than the read itself.
    private func cdqiInteger(at index: Int) -> Int64? {
        guard isLoaded, index >= 0, index < attributeValues.count else { return cdqiInteger(cdqiAttributeValue(at: index)) }
        switch attributeValues[index] {
        case .integer(let value): return value
        case .bool(let value): return value ? 1 : 0
        case .double(let value): return Int64(exactly: value)
        default: return nil
        }
    }

    private func cdqiInteger(_ value: StoredValue) -> Int64? {
        switch value {
        case .integer(let value): return value
        case .bool(let value): return value ? 1 : 0
        // A REAL in an integer column (a store written elsewhere): only a whole number reads.
        case .double(let value): return Int64(exactly: value)
        default: return nil
        }
    }

    // MARK: Relationships

    /// The relationship at `index` in the entity's relationship list, of the wanted kind.
    private func cdqiRelationship(at index: Int, toMany: Bool) -> RelationshipSlot? {
        guard index >= 0, index < entity.relationships.count, entity.relationships[index].isToMany == toMany else {
            cdqiRecord(.unknownKey(entity: entity.name, key: "\(toMany ? "to-many" : "to-one") relationship #\(index)"))
            return nil
        }
        return entity.relationships[index]
    }

    /// The destination of the to-one relationship at `index` (loading the object first); `nil` when
    /// unset or when the access fails.
    public func cdqiToOne(at index: Int) -> ManagedObject? {
        // Reads only the slot number (not a copy of the whole relationship description).
        guard index >= 0, index < entity.relationships.count, !entity.relationships[index].isToMany else {
            cdqiRecord(.unknownKey(entity: entity.name, key: "to-one relationship #\(index)"))
            return nil
        }
        if !isLoaded {
            do {
                try willAccess()
            } catch {
                cdqiRecord(error)
                return nil
            }
        }
        return toOneValues[entity.relationships[index].slotIndex]
    }

    /// Sets the to-one relationship at `index`, updating the inverse of the old and new destinations.
    public func cdqiSetToOne(_ object: ManagedObject?, at index: Int) {
        guard let relationship = cdqiRelationship(at: index, toMany: false) else { return }
        do {
            try setToOne(object, relationship: relationship)
        } catch {
            cdqiRecord(error)
        }
    }

    /// The members of the to-many relationship at `index`, in order (loading them first); empty when
    /// the access fails.
    public func cdqiToMany(at index: Int) -> [ManagedObject] {
        guard let relationship = cdqiRelationship(at: index, toMany: true) else { return [] }
        do {
            return try toMany(relationship).objects
        } catch {
            cdqiRecord(error)
            return []
        }
    }

    /// Replaces the members of the to-many relationship at `index` (in this order, for an ordered one),
    /// updating the inverses.
    public func cdqiSetToMany(_ objects: [ManagedObject], at index: Int) {
        guard let relationship = cdqiRelationship(at: index, toMany: true) else { return }
        do {
            try replaceMembers(of: relationship, with: objects)
        } catch {
            cdqiRecord(error)
        }
    }

    /// Adds an object to the to-many relationship at `index` (at the end of an ordered one), updating
    /// the inverse. Adding a member again does nothing.
    public func cdqiAdd(_ object: ManagedObject, toManyAt index: Int) {
        guard let relationship = cdqiRelationship(at: index, toMany: true) else { return }
        do {
            try add(object, to: relationship, at: nil)
        } catch {
            cdqiRecord(error)
        }
    }

    /// Removes an object from the to-many relationship at `index`, updating the inverse.
    public func cdqiRemove(_ object: ManagedObject, fromManyAt index: Int) {
        guard let relationship = cdqiRelationship(at: index, toMany: true) else { return }
        do {
            try remove(object, from: relationship)
        } catch {
            cdqiRecord(error)
        }
    }

    /// Inserts an object into the ordered to-many relationship at `index`, at `position` (moving it
    /// when it is already a member), updating the inverse; as ``insertObject(_:at:forKey:)`` does.
    public func cdqiInsert(_ object: ManagedObject, at position: Int, inManyAt index: Int) {
        guard let relationship = cdqiRelationship(at: index, toMany: true) else { return }
        do {
            if try toMany(relationship).contains(object) {
                try primitiveRemove(object, from: relationship)
                try primitiveAdd(object, to: relationship, at: position)
            } else {
                try add(object, to: relationship, at: position)
            }
        } catch {
            cdqiRecord(error)
        }
    }

    // MARK: Failures

    private func cdqiRecord(_ error: ManagedObjectError) {
        managedObjectContext?.accessorErrorLog.append(error)
    }
}
