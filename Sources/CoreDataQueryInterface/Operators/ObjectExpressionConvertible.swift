import CDQIPredicate
import CDQIStore

/// Managed objects compare with entity proxies (`$0.department == engineering`), by identity.
extension ManagedObject: TypedExpressionConvertible {
    /// Objects compare with objects and object IDs.
    public typealias CDQIComparisonType = ManagedObject
    /// The object's ID as a constant (a temporary ID for an object not saved yet, which no stored
    /// row matches).
    public var cdqiStoredValue: StoredValue { .objectID(objectID.reference) }
}

/// Object IDs compare with entity proxies (`$0 == [id]`, `$0.department == id`).
extension ManagedObjectID: TypedExpressionConvertible {
    /// Object IDs compare with objects and object IDs.
    public typealias CDQIComparisonType = ManagedObject
    /// The ID as a constant.
    public var cdqiStoredValue: StoredValue { .objectID(reference) }
}
