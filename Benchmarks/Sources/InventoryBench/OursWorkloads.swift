import CDQIModel
import CDQIPredicate
import CDQIStore
import CoreDataQueryInterface
import Foundation

/// The workloads written with this package's public API, as a user would write them.
public final class OursWorkloads {
    let fixture: InventoryFixture
    let container: PersistentContainer
    /// For dictionary (aggregate) fetches, which the store offers (the context does not yet).
    let store: SQLiteStore
    private var context: ManagedObjectContext?
    private var insertContainer: PersistentContainer?
    private var insertCategories: [Int: ManagedObject] = [:]
    private var typedCategories: [Int: Category] = [:]

    public init(fixture: InventoryFixture) throws {
        self.fixture = fixture
        container = try PersistentContainer(model: fixture.model, url: fixture.populatedURL)
        try InventoryEntities.register(on: container.coordinator)
        store = try SQLiteStore(model: fixture.model, url: fixture.populatedURL)
    }

    private func freshContext() { context = container.newContext() }

    private func currentContext() -> ManagedObjectContext {
        if let context { return context }
        let made = container.newContext()
        context = made
        return made
    }

    /// W1: insert through a context with the typed accessors of an entity class (the shape `cdqi`
    /// generates), then save.
    public func insertTyped(count: Int) -> Contender {
        Contender(
            .ours,
            prepare: { [self] in
                insertContainer = nil
                typedCategories = [:]
                let url = try fixture.freshStore(named: "ours-insert.sqlite")
                let container = try PersistentContainer(model: fixture.model, url: url)
                try InventoryEntities.register(on: container.coordinator)
                for object in try container.viewContext.fetch(FetchRequest(entityName: "Category")) {
                    guard let category = object as? Category, let number = Int(category.name.dropFirst("Category ".count))
                    else { continue }
                    typedCategories[number] = category
                }
                insertContainer = container
            },
            run: { [self] in
                guard let context = insertContainer?.viewContext else { return 0 }
                for i in 0..<count {
                    let values = InventoryData.item(i)
                    let item = try context.insert(Item.self)
                    item.assign(values)
                    item.category = typedCategories[values.category]
                }
                if let error = context.accessorErrors.first { throw RawSQLite.Failure(description: "\(error)") }
                _ = try context.save()
                return count
            })
    }

    /// W1 (key-value): insert through a context (`insertNewObject(forEntityName:)` and
    /// `setValue(_:forKey:)`), then save.
    public func insert(count: Int) -> Contender {
        Contender(
            .ours,
            prepare: { [self] in
                insertContainer = nil
                insertCategories = [:]
                let url = try fixture.freshStore(named: "ours-insert.sqlite")
                let container = try PersistentContainer(model: fixture.model, url: url)
                let context = container.viewContext
                for category in try context.fetch(FetchRequest(entityName: "Category")) {
                    guard let name = try category.value(forKey: "name") as? String,
                        let number = Int(name.dropFirst("Category ".count))
                    else { continue }
                    insertCategories[number] = category
                }
                insertContainer = container
            },
            run: { [self] in
                guard let context = insertContainer?.viewContext else { return 0 }
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
                    try item.setValue(insertCategories[values.category], forKey: "category")
                }
                let changes = try context.save()
                _ = changes
                return count
            })
    }

    /// W2: every item as an object, in a fresh context (uniquing, as a context always does).
    public func fetchAll() -> Contender {
        Contender(
            .ours, prepare: { [self] in freshContext() },
            run: { [self] in
                try currentContext().fetch(FetchRequest(entityName: "Item")).count
            })
    }

    /// W3: one object by its indexed code, `lookups` times, through the typed query API:
    /// `context.from(Item.self).filter { $0.code == c }.first()`.
    public func lookups(codes: [String]) -> Contender {
        Contender(
            .ours, prepare: { [self] in freshContext() },
            run: { [self] in
                let context = currentContext()
                var found = 0
                for code in codes {
                    if let item = try context.from(Item.self).filter({ $0.code == code }).first(), item.code == code {
                        found += 1
                    }
                }
                return found
            })
    }

    /// W4: counts of a range of the indexed code.
    public func counts(ranges: [(String, String)]) -> Contender {
        Contender(
            .ours, prepare: { [self] in freshContext() },
            run: { [self] in
                let context = currentContext()
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
                return total
            })
    }

    /// W5: count, sum, average and max per category name, `repeats` times.
    public func groupedAggregate(repeats: Int) throws -> Contender {
        var request = FetchRequest(entityName: "Item")
        request.propertiesToFetch = [
            .keyPath("category.name"),
            .expression(ExpressionDescription(name: "count", expression: try ExpressionNode(format: "count:(code)"))),
            .expression(ExpressionDescription(name: "total", expression: try ExpressionNode(format: "sum:(quantity)"))),
            .expression(ExpressionDescription(name: "averagePrice", expression: try ExpressionNode(format: "average:(price)"))),
            .expression(ExpressionDescription(name: "maxScore", expression: try ExpressionNode(format: "max:(score)"))),
        ]
        request.propertiesToGroupBy = [.keyPath("category.name")]
        return Contender(
            .ours,
            run: { [self] in
                var items = 0
                for _ in 0..<repeats {
                    for row in try store.fetchDictionaries(request) {
                        if case .integer(let count)? = row["count"] { items += Int(count) }
                    }
                }
                return items
            })
    }

    /// W6: items with a part of kind 3 whose title begins with "item 1", case-insensitively.
    public func anyAndBeginsWith() throws -> Contender {
        let predicate = try PredicateNode(format: "ANY parts.kind == %@ AND title BEGINSWITH[c] %@", 3, "item 1")
        return Contender(
            .ours, prepare: { [self] in freshContext() },
            run: { [self] in
                try currentContext().fetch(FetchRequest(entityName: "Item", predicate: predicate)).count
            })
    }

    /// W7: fetch the items with a code below `limitCode`, add 1 to each one's quantity through the
    /// typed accessor, save.
    public func updateTyped(below limitCode: String) -> Contender {
        Contender(
            .ours, prepare: { [self] in freshContext() },
            run: { [self] in
                let context = currentContext()
                let items = try context.from(Item.self).filter { $0.code < limitCode }.all()
                for item in items { item.quantity += 1 }
                if let error = context.accessorErrors.first { throw RawSQLite.Failure(description: "\(error)") }
                _ = try context.save()
                return items.count
            })
    }

    /// W7 (key-value): the same with `value(forKey:)` and `setValue(_:forKey:)`.
    public func update(below limitCode: String) -> Contender {
        Contender(
            .ours, prepare: { [self] in freshContext() },
            run: { [self] in
                let context = currentContext()
                let request = FetchRequest(
                    entityName: "Item", predicate: .comparison(.keyPath("code"), .lessThan, .constant(.string(limitCode))))
                let items = try context.fetch(request)
                for item in items {
                    let quantity = try item.value(forKey: "quantity") as? Int64 ?? 0
                    try item.setValue(quantity + 1, forKey: "quantity")
                }
                _ = try context.save()
                return items.count
            })
    }

    /// W8: parsing a three-clause predicate, and evaluating it on one loaded object; seconds per call.
    public func predicateTimings(parses: Int, evaluations: Int) throws -> (parse: Double, evaluate: Double, matched: Bool) {
        let format = "code BEGINSWITH 'C00001' AND quantity > 10 OR price < 5.0"
        var parsed = try PredicateNode(format: format)
        let parseSeconds = try Measurement.seconds {
            for _ in 0..<parses { parsed = try PredicateNode(format: format) }
        }
        let context = container.newContext()
        let request = FetchRequest(
            entityName: "Item", predicate: .comparison(.keyPath("code"), .equalTo, .constant(.string(InventoryData.code(12)))))
        guard let object = try context.fetch(request).first else {
            throw RawSQLite.Failure(description: "item C0000012 is missing")
        }
        var matched = false
        let evaluateSeconds = try Measurement.seconds {
            for _ in 0..<evaluations { matched = try parsed.evaluate(with: object) }
        }
        return (parseSeconds / Double(parses), evaluateSeconds / Double(evaluations), matched)
    }

    /// Issue 5's query-building figure: a query value with three filters and two orders, and the fetch
    /// request it makes (everything a query does before SQL), per build.
    public func queryBuildTime(builds: Int) -> (seconds: Double, request: FetchRequest) {
        var request = FetchRequest(entityName: "")
        let seconds = Measurement.seconds {
            for index in 0..<builds {
                let limit = Int64(index % 100)
                request = Query<Item, Item>()
                    .filter { $0.code >= "C0001" }
                    .filter { $0.quantity > limit }
                    .filter { $0.price < 5.0 }
                    .order { $0.code }
                    .order(ascending: false) { $0.quantity }
                    .request()
            }
        }
        return (seconds / Double(builds), request)
    }

    /// W10: every item of the store at `url`, walked with a cursor `batchSize` objects at a time, each
    /// item's quantity read through the entity class's typed accessor (`Item.quantity`), or with
    /// `keyValue` through `value(forKey:)`.
    public static func iterate(url: URL, model: ManagedObjectModel, batchSize: Int, keyValue: Bool = false) throws -> Int {
        let container = try PersistentContainer(model: model, url: url)
        let context = container.newContext()
        var request = FetchRequest(entityName: "Item")
        request.fetchBatchSize = batchSize
        var count = 0
        var checksum: Int64 = 0
        if keyValue {
            let cursor = try context.cursor(for: request)
            while let item = try cursor.next() {
                count += 1
                if let quantity = try item.value(forKey: "quantity") as? Int64 { checksum &+= quantity }
            }
        } else {
            try InventoryEntities.register(on: container.coordinator)
            let cursor = try context.cursor(for: request)
            while let object = try cursor.next() {
                guard let item = object as? Item else { throw RawSQLite.Failure(description: "not an Item: \(object)") }
                count += 1
                checksum &+= item.quantity
            }
        }
        _ = checksum
        return count
    }
}
