import CDQIStore
import Foundation
import Sworm

/// An inventory item as Sworm users write it: a plain struct mapped to the `Item` entity.
struct SwormItem: Equatable {
    var active: Bool = false
    var code: String = ""
    var createdAt: Date?
    var price: Double = 0
    var quantity: Int64 = 0
    var rank: Int16 = 0
    var score: Int32 = 0
    var title: String = ""
}

extension SwormItem: ManagedObjectConvertible {
    static let entityName = "Item"
    static let attributes: Set<Attribute<SwormItem>> = [
        .init(\.active, "active"), .init(\.code, "code"), .init(\.createdAt, "createdAt"), .init(\.price, "price"),
        .init(\.quantity, "quantity"), .init(\.rank, "rank"), .init(\.score, "score"), .init(\.title, "title"),
    ]
    static let relations: Void = ()
}

/// WS: fetching every item and decoding it into a struct through Sworm, against our own object fetch
/// (W2's shape: a fresh context, `context.fetch`) plus reading the same eight attributes through the
/// typed accessors of the entity class. The goal: Sworm within 1.5× of the object fetch.
///
/// The summary line prints Sworm as "ours" and the object fetch as "raw" (the runner knows those two
/// kinds): read "ours/raw" as Sworm / object fetch. Both checksums are the sum of every item's
/// quantity, rank and score, so both really read the attributes.
public final class SwormWorkload {
    private let objects: CDQIStore.PersistentContainer
    private let plain: CDQIStore.PersistentContainer
    private let sworm: Sworm.PersistentContainer
    private var context: CDQIStore.ManagedObjectContext?

    public init(fixture: InventoryFixture) throws {
        objects = try CDQIStore.PersistentContainer(model: fixture.model, url: fixture.populatedURL)
        try InventoryEntities.register(on: objects.coordinator)
        // Sworm's objects are plain `ManagedObject`s: no entity classes registered.
        let plain = try CDQIStore.PersistentContainer(model: fixture.model, url: fixture.populatedURL)
        self.plain = plain
        sworm = Sworm.PersistentContainer(managedObjectContext: { plain.newContext() })
    }

    /// The workload over `label` items.
    public func workload(label: String) -> Workload {
        let swormContender = Contender(.ours, run: { [self] in
            let items = try sworm.perform { ctx in try ctx.fetch(SwormItem.all).map { try $0.decode() } }
            return items.reduce(0) { $0 &+ Int($1.quantity) &+ Int($1.rank) &+ Int($1.score) }
        })
        let objectContender = Contender(.raw, prepare: { [self] in context = objects.newContext() }, run: { [self] in
            let context = context ?? objects.newContext()
            var checksum = 0
            for case let item as Item in try context.fetch(FetchRequest(entityName: "Item")) {
                // The same eight attributes Sworm decodes.
                let values = (item.active, item.code, item.createdAt, item.price, item.quantity, item.rank, item.score, item.title)
                checksum = checksum &+ Int(values.4) &+ Int(values.5) &+ Int(values.6)
                withExtendedLifetime(values) {}
            }
            return checksum
        })
        return Workload(
            id: "WS", label: "Sworm fetch + decode \(label) structs", handWrittenLabel: "row init",
            note: "ours = Sworm: perform { ctx.fetch(Item.all).map { decode() } }, context reset included; "
                + "raw = our context.fetch + the same 8 attributes through typed accessors; ours/raw = Sworm / object fetch",
            contenders: [swormContender, objectContender])
    }
}
