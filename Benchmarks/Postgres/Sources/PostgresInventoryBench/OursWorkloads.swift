import CDQIModel
import CDQIPostgres
import CDQIPredicate
import CDQIStore
import Foundation

/// The workloads through CDQI's contexts over the PostgreSQL store (`PostgresStore`), as a user writes
/// them with the key-value API: `insertNewObject` and `setValue(_:forKey:)`, `fetch`, `count(for:)`, a
/// fetch and `save()`. Each run uses a fresh context (no object is cached from one run to the next).
///
/// Used by one task at a time (the runner runs contenders in sequence).
public final class OursWorkloads: PostgresInventoryWorkloads, @unchecked Sendable {
    public let kind = PostgresContenderKind.ours
    let insertStore: PostgresStore, readStore: PostgresStore
    let insertCoordinator: PersistentStoreCoordinator
    let readCoordinator: PersistentStoreCoordinator
    /// The insert schema's categories by index, as object IDs (each run makes its faults).
    let categories: [ManagedObjectID]

    public init(database: PostgresBenchDatabase) throws {
        let model = try PostgresBenchDatabase.loadModel()
        func store(_ schema: String) throws -> PostgresStore {
            var url = database.url
            url.schema = schema
            return try PostgresStore(model: model, url: url, connections: 2)
        }
        insertStore = try store(database.insertSchema)
        readStore = try store(database.readSchema)
        insertCoordinator = PersistentStoreCoordinator(model: model, store: insertStore)
        readCoordinator = PersistentStoreCoordinator(model: model, store: readStore)
        var request = FetchRequest(entityName: "Category")
        request.sortDescriptors = [FetchSortDescriptor(keyPath: "name")]
        var byIndex: [Int: ManagedObjectID] = [:]
        let context = ManagedObjectContext(coordinator: insertCoordinator)
        for category in try context.fetch(request) {
            guard let name = try category.value(forKey: "name") as? String, let index = Int(name.dropFirst("Category ".count))
            else { continue }
            byIndex[index] = category.objectID
        }
        categories = (0..<InventoryData.categoryCount).compactMap { byIndex[$0] }
        guard categories.count == InventoryData.categoryCount else {
            throw PostgresBenchDatabase.Failure(description: "the insert schema has \(categories.count) categories")
        }
    }

    public func insert(count: Int) throws -> any ItemRows {
        let context = ManagedObjectContext(coordinator: insertCoordinator)
        for i in 0..<count {
            let values = InventoryData.item(i)
            let item = try context.insertNewObject(forEntityName: "Item")
            try item.setValue(values.active, forKey: "active")
            try item.setValue(values.code, forKey: "code")
            try item.setValue(values.createdAt, forKey: "createdAt")
            try item.setValue(values.price, forKey: "price")
            try item.setValue(values.quantity, forKey: "quantity")
            try item.setValue(values.rank, forKey: "rank")
            try item.setValue(values.score, forKey: "score")
            try item.setValue(values.title, forKey: "title")
            try item.setValue(context.object(with: categories[values.category]), forKey: "category")
        }
        try context.save()
        return ItemChecksum(count: count)
    }

    public func fetchAll() throws -> any ItemRows {
        let context = ManagedObjectContext(coordinator: readCoordinator)
        return ObjectItems(context: context, objects: try context.fetch(FetchRequest(entityName: "Item")))
    }

    public func lookups(codes: [String]) throws -> any ItemRows {
        let context = ManagedObjectContext(coordinator: readCoordinator)
        var found: [ManagedObject] = []
        found.reserveCapacity(codes.count)
        for code in codes {
            var request = FetchRequest(
                entityName: "Item", predicate: .comparison(.keyPath("code"), .equalTo, .constant(.string(code))))
            request.fetchLimit = 1
            found += try context.fetch(request)
        }
        return ObjectItems(context: context, objects: found)
    }

    public func counts(ranges: [(String, String)]) throws -> any ItemRows {
        let context = ManagedObjectContext(coordinator: readCoordinator)
        var total = 0
        for (low, high) in ranges {
            let request = FetchRequest(
                entityName: "Item",
                predicate: .and([
                    .comparison(.keyPath("code"), .greaterThanOrEqual, .constant(.string(low))),
                    .comparison(.keyPath("code"), .lessThan, .constant(.string(high))),
                ]))
            total += try context.count(for: request)
        }
        return ItemChecksum(count: total)
    }

    public func update(below limitCode: String) throws -> any ItemRows {
        let context = ManagedObjectContext(coordinator: readCoordinator)
        let items = try context.fetch(
            FetchRequest(entityName: "Item", predicate: .comparison(.keyPath("code"), .lessThan, .constant(.string(limitCode)))))
        for item in items {
            let quantity = try item.value(forKey: "quantity") as? Int64 ?? 0
            try item.setValue(quantity + 1, forKey: "quantity")
        }
        try context.save()
        // The checksum is of the items as read: before the save raised quantity and version by one.
        return ObjectItems(context: context, objects: items, raisedBy: 1)
    }

    public func shutdown() {
        insertStore.pool.close()
        readStore.pool.close()
    }

}

/// Objects a run returned, with their context (objects live as long as it does): their values are read
/// into ``ItemRecord``s by ``checksum()``, after the clock stops, as the other contenders' rows are
/// summed then. `raisedBy` is what W7 added to each quantity and version. Used by one task at a time.
struct ObjectItems: ItemRows, @unchecked Sendable {
    let context: ManagedObjectContext
    let objects: [ManagedObject]
    var raisedBy: Int64 = 0

    func checksum() -> ItemChecksum {
        ((try? records()) ?? []).checksum()
    }

    func records() throws -> [ItemRecord] {
        try objects.map { item in
            guard let key = item.objectID.primaryKey else {
                throw PostgresBenchDatabase.Failure(description: "an item has no primary key")
            }
            let category = try item.value(forKey: "category") as? ManagedObject
            return ItemRecord(
                id: key, entity: Int64(item.entity.number), version: (item.rowVersion ?? 0) - raisedBy,
                active: try item.value(forKey: "active") as? Bool ?? false, code: try item.value(forKey: "code") as? String ?? "",
                createdAt: (try item.value(forKey: "createdAt") as? Date)?.timeIntervalSinceReferenceDate ?? 0,
                price: try item.value(forKey: "price") as? Double ?? 0,
                quantity: (try item.value(forKey: "quantity") as? Int64 ?? 0) - raisedBy,
                rank: try item.value(forKey: "rank") as? Int16 ?? 0, score: try item.value(forKey: "score") as? Int32 ?? 0,
                title: try item.value(forKey: "title") as? String ?? "", category: category?.objectID.primaryKey)
        }
    }
}
