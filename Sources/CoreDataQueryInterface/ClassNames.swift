import Synchronization

/// Class names worked out once per class: `String(describing:)` on a type costs about as much as
/// running a small query, and every query names its entity.
enum ClassNames {
    private static let names = Mutex<[ObjectIdentifier: String]>([:])

    static func name(of type: AnyObject.Type) -> String {
        let key = ObjectIdentifier(type)
        if let name = names.withLock({ $0[key] }) { return name }
        let name = String(describing: type)
        names.withLock { $0[key] = name }
        return name
    }
}
