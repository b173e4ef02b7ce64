import Foundation

/// A store-independent reference to a managed object: what the store layer's object IDs map to.
///
/// Saved objects are identified by their store, their entity and their primary key (`Z_PK`);
/// unsaved objects by a temporary UUID. The URI form follows Core Data:
/// `x-coredata://STORE-UUID/Entity/p42` and `x-coredata:///Entity/tUUID` for temporary IDs.
public struct ObjectReference: Sendable, Hashable, CustomStringConvertible {
    /// How the object is identified within its store.
    public enum Identity: Sendable, Hashable {
        /// A saved row: its primary key (`Z_PK`).
        case primaryKey(Int64)
        /// An unsaved object: a temporary identifier that equals only itself.
        case temporary(UUID)
    }

    /// The entity name. For equality the store layer passes the root entity's name, since `Z_PK` is
    /// unique per root-entity table.
    public var entityName: String
    /// The store identifier (the UUID in the store's metadata), or empty for temporary IDs.
    public var storeIdentifier: String
    /// The primary key or temporary identifier.
    public var identity: Identity

    /// Creates a reference.
    public init(entityName: String, storeIdentifier: String, identity: Identity) {
        self.entityName = entityName
        self.storeIdentifier = storeIdentifier
        self.identity = identity
    }

    /// `true` for an unsaved object's temporary ID.
    public var isTemporary: Bool {
        if case .temporary = identity { return true }
        return false
    }

    /// Core Data's URI form, e.g. `x-coredata://3F2A…/Employee/p12`.
    public var uriString: String {
        switch identity {
        case .primaryKey(let key):
            return "x-coredata://\(storeIdentifier)/\(entityName)/p\(key)"
        case .temporary(let uuid):
            return "x-coredata:///\(entityName)/t\(uuid.uuidString)"
        }
    }

    /// Parses Core Data's URI form; returns `nil` when the text is not such a URI.
    public init?(uriString: String) {
        let prefix = "x-coredata://"
        guard uriString.hasPrefix(prefix) else { return nil }
        let rest = uriString.dropFirst(prefix.count)
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[1].isEmpty, let kind = parts[2].first else { return nil }
        let tail = parts[2].dropFirst()
        switch kind {
        case "p":
            guard !parts[0].isEmpty, let key = Int64(tail) else { return nil }
            self.init(entityName: String(parts[1]), storeIdentifier: String(parts[0]), identity: .primaryKey(key))
        case "t":
            guard let uuid = UUID(uuidString: String(tail)) else { return nil }
            self.init(entityName: String(parts[1]), storeIdentifier: String(parts[0]), identity: .temporary(uuid))
        default:
            return nil
        }
    }

    public var description: String { uriString }
}
