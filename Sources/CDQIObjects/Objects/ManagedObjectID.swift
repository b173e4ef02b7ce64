import CDQIPredicate
import Foundation

/// The identity of a managed object: its entity, its store and its primary key (`Z_PK`), or a
/// temporary identifier until its first save.
///
/// A cheap value to copy (a reference to its entity's layout, the store's number and the key), usable
/// across threads and contexts: pass IDs between contexts, not objects. The URI form is Core Data's:
/// `x-coredata://STORE-UUID/Employee/p12` for saved objects and `x-coredata:///Employee/tUUID` for
/// unsaved ones. Two IDs are equal when they name the same row of the same store (or are the same
/// temporary ID).
public struct ManagedObjectID: Hashable, Sendable, CustomStringConvertible {
    /// The object's entity.
    @inlinable public var entity: EntityLayout { handle.layout }
    /// The entity as the context that made the ID holds it (see ``EntityHandle``).
    @usableFromInline let handle: EntityHandle
    /// The store's UUID (empty for a temporary ID).
    public var storeIdentifier: String { store.identifier }
    /// The store, as its interned number (see ``StoreNumber``).
    package let store: StoreNumber
    /// The primary key or temporary identifier.
    // Settable inside this module (CDQIObjects) so that an object shell reused by a fetch cursor takes another row's
    // key in place (see ``ManagedObject/becomeShell(forKey:of:store:)``).
    public internal(set) var identity: ObjectReference.Identity

    init(entity: EntityHandle, store: StoreNumber, primaryKey: Int64) {
        handle = entity
        self.store = store
        self.identity = .primaryKey(primaryKey)
    }

    init(entity: EntityHandle, store: StoreNumber, identity: ObjectReference.Identity) {
        handle = entity
        self.store = store
        self.identity = identity
    }

    init(temporaryFor entity: EntityHandle) {
        handle = entity
        self.store = .none
        self.identity = .temporary(TemporaryIdentifiers.next())
    }

    /// `true` until the object is saved.
    public var isTemporaryID: Bool {
        if case .temporary = identity { return true }
        return false
    }

    /// The primary key (`Z_PK`), or `nil` for a temporary ID.
    public var primaryKey: Int64? {
        if case .primaryKey(let key) = identity { return key }
        return nil
    }

    /// The entity's name.
    public var entityName: String { entity.name }

    /// The store-independent reference the predicate layer uses (same URI form).
    public var reference: ObjectReference {
        ObjectReference(entityName: entity.name, storeIdentifier: storeIdentifier, identity: identity)
    }

    /// Core Data's URI form.
    public var uriString: String { reference.uriString }

    /// Core Data's URI form as a URL.
    public var uriRepresentation: URL? { URL(string: uriString) }

    /// A sentence describing the value.
    public var description: String { uriString }

    /// Whether the two are the same (identity for objects; the same row or temporary ID for IDs).
    public static func == (left: ManagedObjectID, right: ManagedObjectID) -> Bool {
        // Z_PK is unique per hierarchy table, so the root entity (not the concrete one) identifies a row.
        left.identity == right.identity && left.store == right.store
            && left.entity.rootName == right.entity.rootName
    }

    /// Hashes what `==` compares. The root's entity number stands for its name: within one store the
    /// two go together (the store is checked against its model), and an integer hashes faster.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(identity)
        hasher.combine(entity.rootNumber)
    }
}
