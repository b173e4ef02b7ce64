import CDQIModel
import CDQIPredicate
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// The model of the change-tracking tests (reference §7): Item(name, group, rank), and Other(title)
/// for changes to another entity.
enum ChangeTestSupport {
    static func model() -> ManagedObjectModel {
        var item = EntityDescription(name: "Item")
        item.attributes = [
            AttributeDescription(name: "name", type: .string, isOptional: true),
            AttributeDescription(name: "group", type: .string, isOptional: true),
            AttributeDescription(name: "rank", type: .integer64, isOptional: true),
        ]
        var other = EntityDescription(name: "Other")
        other.attributes = [AttributeDescription(name: "title", type: .string, isOptional: true)]
        return ManagedObjectModel(entities: [item, other])
    }

    /// A coordinator on a new store file (WAL, readers) or in memory.
    static func coordinator(url: URL? = nil) throws -> PersistentStoreCoordinator {
        try PersistentStoreCoordinator(model: model(), url: url)
    }

    @discardableResult
    static func item(_ name: String, _ group: String?, _ rank: Int64, in context: ManagedObjectContext) throws -> ManagedObject {
        let object = try context.insertNewObject(forEntityName: "Item")
        try object.setValue(name, forKey: "name")
        try object.setValue(group, forKey: "group")
        try object.setValue(rank, forKey: "rank")
        return object
    }

    static func name(_ object: ManagedObject) -> String {
        ((try? object.value(forKey: "name")) as? String) ?? "?"
    }

    /// §7's request: Items with `rank >= 0`, by group then rank (then name, so ties never depend on IDs).
    /// Without `byName`, §7's request exactly (name is then no key).
    static func request(byName: Bool = true) throws -> FetchRequest {
        FetchRequest(
            entityName: "Item", predicate: try PredicateNode(format: "rank >= 0", argumentArray: []),
            sortDescriptors: [FetchSortDescriptor(keyPath: "group"), FetchSortDescriptor(keyPath: "rank")]
                + (byName ? [FetchSortDescriptor(keyPath: "name")] : []))
    }
}

/// Collects notifications posted for one object; `Sendable` through its lock.
final class NotificationLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(name: String, info: [AnyHashable: Any])] = []
    private var tokens: [any NSObjectProtocol] = []

    init(_ names: [Notification.Name], object: AnyObject?) {
        for name in names {
            tokens.append(
                NotificationCenter.default.addObserver(forName: name, object: object, queue: nil) { [weak self] note in
                    guard let self else { return }
                    let info = note.userInfo ?? [:]
                    self.lock.withLock { self.entries.append((note.name.rawValue, info)) }
                })
        }
    }

    deinit {
        for token in tokens { NotificationCenter.default.removeObserver(token) }
    }

    var names: [String] { lock.withLock { entries.map(\.name) } }
    var infos: [[AnyHashable: Any]] { lock.withLock { entries.map(\.info) } }

    func clear() { lock.withLock { entries = [] } }
}
