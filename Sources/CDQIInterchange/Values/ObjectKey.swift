import CDQIPredicate
import CDQIStore

/// The `_id` export gives a stored object: its entity and primary key, `"Employee/3"`.
public enum ObjectKey {
    /// `Entity/pk` for a saved object of this store; the object-ID URI otherwise.
    public static func string(for reference: ObjectReference) -> String {
        if case .primaryKey(let key) = reference.identity { return "\(reference.entityName)/\(key)" }
        return reference.uriString
    }

    /// `Entity/pk` for a saved object; the object-ID URI for an unsaved one.
    public static func string(for id: ManagedObjectID) -> String {
        string(for: id.reference)
    }
}
