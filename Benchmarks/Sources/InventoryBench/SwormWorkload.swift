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

/// WS and WSr: fetching every item and decoding it into a struct through Sworm, against our own
/// object fetch (W2's shape: `context.fetch` in a fresh context) plus reading the same eight
/// attributes through the typed accessors of the entity class. The goal: Sworm within 1.5×
/// of the object fetch.
///
/// - WS is W2's shape exactly: each run gets a fresh context made before the clock starts, and the
///   context (with its 100k objects) is released after the clock stops. Sworm runs with
///   `cleanUpAfterExecution: false` on a context handed to it that way.
/// - WSr is Sworm as configured by default (`perform` resets its context, inside the timing); the
///   object fetch then also releases its context inside the timing, so both pay the teardown.
///
/// The summary lines print Sworm as "ours" and the object fetch as "raw" (the two kinds the runner
/// knows): read "ours/raw" as Sworm / object fetch. Both checksums are the sum of every item's
/// quantity, rank and score, so both really read the attributes.
public final class SwormWorkload {
    private let objects: CDQIStore.PersistentContainer
    private let plain: CDQIStore.PersistentContainer
    /// The context the next timed run uses, made (and the last one released) before the clock starts.
    private let handedOver = HandedOverContext()
    private var objectContext: CDQIStore.ManagedObjectContext?

    /// The context WS hands to Sworm's closure.
    private final class HandedOverContext: @unchecked Sendable {
        var context: CDQIStore.ManagedObjectContext?
    }

    public init(fixture: InventoryFixture) throws {
        objects = try CDQIStore.PersistentContainer(model: fixture.model, url: fixture.populatedURL)
        try InventoryEntities.register(on: objects.coordinator)
        // Sworm's objects are plain `ManagedObject`s: no entity classes registered.
        plain = try CDQIStore.PersistentContainer(model: fixture.model, url: fixture.populatedURL)
    }

    private static func checksum(_ items: [SwormItem]) -> Int {
        items.reduce(0) { $0 &+ Int($1.quantity) &+ Int($1.rank) &+ Int($1.score) }
    }

    /// Our object fetch reading the eight attributes Sworm decodes.
    private static func readObjects(_ context: CDQIStore.ManagedObjectContext) throws -> Int {
        var checksum = 0
        for case let item as Item in try context.fetch(FetchRequest(entityName: "Item")) {
            let values = (item.active, item.code, item.createdAt, item.price, item.quantity, item.rank, item.score, item.title)
            checksum = checksum &+ Int(values.4) &+ Int(values.5) &+ Int(values.6)
            withExtendedLifetime(values) {}
        }
        return checksum
    }

    /// WS: fetch and decode, context made and released outside the timing (W2's shape).
    public func workload(label: String) -> Workload {
        let plain = plain
        let handedOver = handedOver
        let sworm = Sworm.PersistentContainer(
            managedObjectContext: { handedOver.context ?? plain.newContext() }, cleanUpAfterExecution: false)
        let swormContender = Contender(
            .ours, prepare: { handedOver.context = plain.newContext() },
            run: {
                Self.checksum(try sworm.perform { ctx in try ctx.fetch(SwormItem.all).map { try $0.decode() } })
            })
        let objectContender = Contender(
            .raw, prepare: { [self] in objectContext = objects.newContext() },
            run: { [self] in
                try Self.readObjects(objectContext ?? objects.newContext())
            })
        return Workload(
            id: "WS", label: "Sworm fetch + decode \(label) structs", handWrittenLabel: "row init",
            note: "ours = Sworm perform { ctx.fetch(Item.all).map { decode() } }; raw = our context.fetch + the same 8 "
                + "attributes through typed accessors; fresh contexts made and released outside the timing, as W2",
            contenders: [swormContender, objectContender])
    }

    /// WSr: Sworm's default `perform` (which resets its context) against the object fetch releasing its
    /// context, both inside the timing.
    public func workloadWithTeardown(label: String) -> Workload {
        let plain = plain
        let sworm = Sworm.PersistentContainer(managedObjectContext: { plain.newContext() })
        let swormContender = Contender(
            .ours,
            run: {
                Self.checksum(try sworm.perform { ctx in try ctx.fetch(SwormItem.all).map { try $0.decode() } })
            })
        let objectContender = Contender(
            .raw,
            run: { [self] in
                try Self.readObjects(objects.newContext())
            })
        return Workload(
            id: "WSr", label: "Sworm fetch + decode \(label) structs, context teardown timed", handWrittenLabel: "row init",
            note: "ours = Sworm's default perform (resets its context); raw = our context.fetch + the same 8 attributes, "
                + "context released inside the timing",
            contenders: [swormContender, objectContender])
    }
}
