import CDQIModel
import CDQIStore

/// Inserts the objects of a checked document into a context, reading its lists again (an object at a
/// time) in the order ``ImportBatches`` gives, and applies each batch's relationship statements once the
/// batch's objects are inserted. Between batches it saves and resets the context, so that only one
/// batch of objects is in memory; the save of the last batch is the caller's.
struct DocumentInserter: DocumentVisitor {
    /// The document read now is not the one that was checked.
    struct Changed: Error {}

    /// The save of a batch before the last one failed validation (the whole import is then redone as
    /// one save, which reports every problem in the document's terms).
    struct BatchRefused: Error {}

    let plan: ImportPlan
    let batches: ImportBatches
    let context: ManagedObjectContext
    let progress: ((Int) -> Void)?
    /// The batch being inserted.
    private var batch = 0
    /// How many objects have been inserted.
    private(set) var count = 0
    /// The objects of the current batch, by position in ``ImportPlan/objects``.
    private(set) var live: [Int: ManagedObject] = [:]
    /// The IDs of objects of earlier batches that a later batch's statements name.
    private var saved: [Int: ManagedObjectID] = [:]
    /// Whether an object of ``ImportPlan/objects`` is named by a statement of a later batch than its own.
    private let namedLater: Set<Int>
    /// The list being read, and the position in ``ImportPlan/objects`` of its first object.
    private var listStart = 0

    init(plan: ImportPlan, batches: ImportBatches, context: ManagedObjectContext, progress: ((Int) -> Void)?) {
        self.plan = plan
        self.batches = batches
        self.context = context
        self.progress = progress
        var namedLater: Set<Int> = []
        if batches.isBatched {
            // The destinations of statements applied in a later batch than the one their objects are in.
            var placeBatch = [Int](repeating: 0, count: plan.objects.count)
            var place = 0
            for list in batches.listOrder {
                for index in plan.lists[list].objects {
                    placeBatch[index] = batches.batch(of: place)
                    place += 1
                }
            }
            for (batch, statements) in batches.statements.enumerated() {
                for statementIndex in statements {
                    for destination in plan.destinations[plan.destinationRange(of: plan.statements[statementIndex])]
                    where placeBatch[destination] < batch {
                        namedLater.insert(destination)
                    }
                }
            }
        }
        self.namedLater = namedLater
    }

    /// Reads the lists in insertion order, inserting every object and applying every statement (all but
    /// the last batch saved).
    mutating func insertAll(from source: DocumentSource) throws {
        for list in batches.listOrder {
            listStart = plan.lists[list].objects.lowerBound
            let entity = plan.entities[plan.lists[list].entity].description.name
            try DocumentWalker.walkList(source, at: plan.lists[list].offset, entity: entity, visitor: &self)
        }
        guard count == plan.objects.count else { throw Changed() }
        try apply(batches.statements[batch])
    }

    func documentIsNot(_ kind: String) throws { throw Changed() }

    func beginList(entity: String, at offset: Int) throws -> Bool { true }

    func listIsNot(_ kind: String, entity: String) throws { throw Changed() }

    mutating func element(_ members: [(key: String, value: JSONValue)]?, kind: String, position: Int, entity entityName: String) throws {
        let index = listStart + position - 1
        guard let members, count < plan.objects.count, plan.objects.indices.contains(index) else { throw Changed() }
        let object = plan.objects[index]
        let entity = plan.entity(of: object)
        guard entity.description.name == entityName, object.position == position else { throw Changed() }
        if batch + 1 < batches.starts.count, count == batches.starts[batch + 1] { try endBatch() }
        let managed = try context.insertNewObject(forEntityName: entityName)
        for (key, value) in members where key != "_id" {
            guard let attribute = entity.attributeIndex[key] else { continue }
            guard case .success(let stored) = AttributeValueReader.read(value, for: entity.attributes[attribute]) else { throw Changed() }
            try managed.setStoredValue(stored, forKey: key)
        }
        live[index] = managed
        count += 1
        if count % 1_000 == 0 { progress?(count) }
    }

    /// The objects inserted, by position in ``ImportPlan/objects``: in one batch, all of them.
    var inserted: [Int: ManagedObject] { live }

    /// Applies the current batch's statements, saves it, remembers the IDs later batches need and
    /// empties the context.
    private mutating func endBatch() throws {
        try apply(batches.statements[batch])
        do {
            try context.save()
        } catch {
            if case .validation = error { throw BatchRefused() }
            throw error
        }
        for (index, object) in live where namedLater.contains(index) { saved[index] = object.objectID }
        live.removeAll(keepingCapacity: true)
        context.reset()
        batch += 1
    }

    /// The object at `index` of ``ImportPlan/objects``: of this batch, or a fault of a saved one.
    private func object(at index: Int) throws -> ManagedObject {
        if let object = live[index] { return object }
        guard let id = saved[index] else { throw Changed() }
        return context.object(with: id)
    }

    /// Applies statements: the to-one ones, then the to-many ones, each in document order.
    private func apply(_ statements: [Int]) throws {
        for toMany in [false, true] {
            for statementIndex in statements where plan.statements[statementIndex].isToMany == toMany {
                let statement = plan.statements[statementIndex]
                let index = try owner(of: statementIndex)
                let relationship = plan.entity(of: plan.objects[index]).relationships[statement.relationship]
                let managed = try object(at: index)
                var destinations: [ManagedObject] = []
                for destination in plan.destinations[plan.destinationRange(of: statement)] {
                    destinations.append(try object(at: destination))
                }
                if toMany {
                    if batches.isBatched && ImportBatches.isRedundant(statement, of: index, plan) { continue }
                    try managed.setValue(destinations, forKey: relationship.name)
                } else if batches.isBatched {
                    try managed.setToOneLeavingInverseUnloaded(destinations.first, forKey: relationship.name)
                } else {
                    try managed.setValue(destinations.first, forKey: relationship.name)
                }
            }
        }
    }

    /// The object whose statement `statementIndex` is (a binary search of the objects' first statements).
    private func owner(of statementIndex: Int) throws -> Int {
        var low = 0
        var high = plan.objects.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if plan.objects[middle].firstStatement <= statementIndex { low = middle } else { high = middle }
        }
        guard plan.statementRange(of: low).contains(statementIndex) else { throw Changed() }
        return low
    }
}
