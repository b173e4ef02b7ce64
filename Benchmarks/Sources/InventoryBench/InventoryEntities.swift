import CDQIModel
import CDQIStore
import CoreDataQueryInterface
import Foundation

// The entity classes and query proxies of the benchmark model, written by hand in the shape `cdqi`
// generates them: typed properties over the slots of ``ManagedObject`` (an attribute's index in the
// entity's attribute list, a relationship's in its relationship list), no string keys, no `Any`.

/// An item (`Item` in Inventory.xcdatamodeld).
final class Item: ManagedObject {
    class var cdqiEntityName: String { "Item" }
    override class var cdqiReusableClass: ManagedObject.Type { Item.self }

    // Attribute indexes: active 0, code 1, createdAt 2, price 3, quantity 4, rank 5, score 6, title 7.
    // Relationship indexes: category 0, parts 1. ``InventoryEntities/check(_:)`` verifies them.
    var active: Bool {
        get { cdqiBool(at: 0) ?? false }
        set { cdqiSetBool(newValue, at: 0) }
    }
    var code: String {
        get { cdqiString(at: 1) ?? "" }
        set { cdqiSetString(newValue, at: 1) }
    }
    var createdAt: Date? {
        get { cdqiDate(at: 2) }
        set { cdqiSetDate(newValue, at: 2) }
    }
    var price: Double {
        get { cdqiDouble(at: 3) ?? 0 }
        set { cdqiSetDouble(newValue, at: 3) }
    }
    var quantity: Int64 {
        get { cdqiInt64(at: 4) ?? 0 }
        set { cdqiSetInt64(newValue, at: 4) }
    }
    var rank: Int16 {
        get { cdqiInt16(at: 5) ?? 0 }
        set { cdqiSetInt16(newValue, at: 5) }
    }
    var score: Int32 {
        get { cdqiInt32(at: 6) ?? 0 }
        set { cdqiSetInt32(newValue, at: 6) }
    }
    var title: String {
        get { cdqiString(at: 7) ?? "" }
        set { cdqiSetString(newValue, at: 7) }
    }
    var category: Category? {
        get { cdqiToOne(at: 0) as? Category }
        set { cdqiSetToOne(newValue, at: 0) }
    }
}

/// A category (`Category`).
final class Category: ManagedObject {
    class var cdqiEntityName: String { "Category" }
    override class var cdqiReusableClass: ManagedObject.Type { Category.self }

    var name: String {
        get { cdqiString(at: 0) ?? "" }
        set { cdqiSetString(newValue, at: 0) }
    }
}

/// The query proxy of `Item`, as `cdqi` generates it.
final class ItemAttribute: EntityAttribute, Subqueryable {
    private(set) lazy var active = BooleanAttribute(key: "active", parent: self)
    private(set) lazy var code = StringAttribute(key: "code", parent: self)
    private(set) lazy var price = DoubleAttribute(key: "price", parent: self)
    private(set) lazy var quantity = Integer64Attribute(key: "quantity", parent: self)
    private(set) lazy var title = StringAttribute(key: "title", parent: self)
}

extension Item: Entity {
    typealias CDQIAttribute = ItemAttribute
}

enum InventoryEntities {
    /// Registers the classes with a coordinator, after checking that the hand-written indexes match
    /// the model's attribute and relationship order.
    static func register(on coordinator: PersistentStoreCoordinator) throws {
        try check(coordinator.model)
        coordinator.register(Item.self, forEntityName: "Item")
        coordinator.register(Category.self, forEntityName: "Category")
    }

    static func check(_ model: ManagedObjectModel) throws {
        let expected: [(String, [String], [String])] = [
            ("Item", ["active", "code", "createdAt", "price", "quantity", "rank", "score", "title"], ["category", "parts"]),
            ("Category", ["name"], ["items"]),
        ]
        for (name, attributes, relationships) in expected {
            guard let entity = model.entity(named: name), entity.attributes.map(\.name) == attributes,
                entity.relationships.map(\.name) == relationships
            else {
                throw RawSQLite.Failure(description: "the hand-written \(name) class does not match the model's property order")
            }
        }
    }
}
