import CDQIModel

/// How an import splits its objects into saves, so that its memory does not grow with the document:
/// the order its lists are inserted in, where a batch ends (its objects are saved and let go before the
/// next batch is inserted, all inside one transaction), and the relationship statements each batch
/// applies.
///
/// The store it gives is the one a single save gives:
/// - Lists are inserted destinations first (a list after the lists of the entities its to-one
///   relationships point to, when there is no cycle), but the lists of one entity hierarchy in document
///   order: primary keys come from one counter per hierarchy, so every object gets the key it gets in
///   document order.
/// - A statement is applied in the batch of the last object it involves, and a batch never ends between
///   the objects one statement involves: no object is changed after its batch is saved (every row is
///   written once, in its final state, and validated in it), and statements of different batches touch
///   different objects, so that applying each batch's statements in document order (to-one ones first,
///   as one save does) gives what applying them all in that order gives.
/// - A to-one statement does not involve its destination when the inverse is an unordered to-many with
///   nothing to validate: it is set without reading the destination's members
///   (`setToOneLeavingInverseUnloaded`), and the member's row holds the reference either way.
/// - A to-many statement whose inverse is to-one and whose every member states that inverse (as an export
///   writes both sides) adds nothing to what those statements give when unordered, and is not applied.
struct ImportBatches {
    /// The lists of ``ImportPlan/lists`` in the order they are inserted.
    let listOrder: [Int]
    /// Each batch's first object, as a place in the insertion order (the first is 0).
    let starts: [Int]
    /// Each batch's statements (positions in ``ImportPlan/statements``), in document order.
    let statements: [[Int]]
    /// Whether to-one statements leave an unloaded inverse to-many unloaded, and redundant to-many
    /// statements are skipped (only when there are several batches).
    let isBatched: Bool

    private init(listOrder: [Int], starts: [Int], statements: [[Int]]) {
        self.listOrder = listOrder
        self.starts = starts
        self.statements = statements
        isBatched = starts.count > 1
    }

    /// One batch in document order: every statement applied after every object is inserted, as one
    /// save does.
    init(single plan: ImportPlan) {
        self.init(listOrder: Array(plan.lists.indices), starts: [0], statements: [Array(plan.statements.indices)])
    }

    init(_ plan: ImportPlan, model: ManagedObjectModel, batchSize: Int) {
        guard plan.objects.count > max(1, batchSize) else {
            self.init(single: plan)
            return
        }
        let listOrder = Self.insertionOrder(plan, model: model)
        // Each object's place in the insertion order.
        var rank = [Int](repeating: 0, count: plan.objects.count)
        var next = 0
        for list in listOrder {
            for index in plan.lists[list].objects {
                rank[index] = next
                next += 1
            }
        }
        // blocked[k] > 0: a batch cannot end before the object in place k. Kept as differences (+1 where
        // a blocked run starts, -1 after it ends).
        var blocked = [Int](repeating: 0, count: plan.objects.count + 2)
        var due = [Int?](repeating: nil, count: plan.statements.count)
        for index in plan.objects.indices {
            let entity = plan.entity(of: plan.objects[index])
            for statementIndex in plan.statementRange(of: index) {
                let statement = plan.statements[statementIndex]
                let relationship = entity.relationships[statement.relationship]
                let destinations = plan.destinations[plan.destinationRange(of: statement)].map { rank[$0] }
                let last: Int
                let first: Int
                if statement.isToMany {
                    if Self.isRedundant(statement, of: index, plan) { continue }
                    last = max(rank[index], destinations.max() ?? 0)
                    first = min(rank[index], destinations.min() ?? rank[index])
                } else {
                    last = max(rank[index], destinations.first ?? 0)
                    first =
                        Self.leavesDestinationAlone(relationship, plan: plan, destinations: statement)
                        ? rank[index] : min(rank[index], destinations.first ?? rank[index])
                }
                due[statementIndex] = last
                if last > first {
                    blocked[first + 1] += 1
                    blocked[last + 1] -= 1
                }
            }
        }
        var starts = [0]
        var depth = 0
        for place in 1..<plan.objects.count {
            depth += blocked[place]
            if depth == 0, place - (starts.last ?? 0) >= batchSize { starts.append(place) }
        }
        var batches = [[Int]](repeating: [], count: starts.count)
        for (statementIndex, place) in due.enumerated() {
            if let place { batches[Self.batch(of: place, starts: starts)].append(statementIndex) }
        }
        self.init(listOrder: listOrder, starts: starts, statements: batches)
    }

    /// The batch of the object in place `place` of the insertion order.
    func batch(of place: Int) -> Int { Self.batch(of: place, starts: starts) }

    private static func batch(of place: Int, starts: [Int]) -> Int {
        var low = 0
        var high = starts.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if starts[middle] <= place { low = middle } else { high = middle }
        }
        return low
    }

    /// Whether setting this to-one relationship leaves its destinations alone: it has no inverse, or
    /// its inverse is an unordered to-many with nothing to validate (set without reading its members).
    static func leavesDestinationAlone(
        _ relationship: RelationshipDescription, plan: ImportPlan, destinations statement: ImportPlan.Statement
    )
        -> Bool
    {
        guard let inverseName = relationship.inverseName else { return true }
        guard let destination = plan.destinations[plan.destinationRange(of: statement)].first else { return true }
        let entity = plan.entity(of: plan.objects[destination])
        guard let inverse = entity.relationshipIndex[inverseName].map({ entity.relationships[$0] }) else { return true }
        return inverse.isToMany && !inverse.isOrdered && inverse.isOptional && (inverse.minCount ?? 0) == 0 && (inverse.maxCount ?? 0) == 0
    }

    /// Whether a to-many statement adds nothing to its members' statements: the relationship is
    /// unordered, its inverse to-one, and every member states the inverse (naming this object, as the
    /// plan checked).
    static func isRedundant(_ statement: ImportPlan.Statement, of index: Int, _ plan: ImportPlan) -> Bool {
        let relationship = plan.entity(of: plan.objects[index]).relationships[statement.relationship]
        guard statement.isToMany, !relationship.isOrdered, let inverseName = relationship.inverseName else { return false }
        for destination in plan.destinations[plan.destinationRange(of: statement)] {
            let entity = plan.entity(of: plan.objects[destination])
            guard let inverse = entity.relationshipIndex[inverseName].map({ entity.relationships[$0] }), !inverse.isToMany,
                plan.statementIndex(of: destination, named: inverseName) != nil
            else { return false }
        }
        return true
    }

    /// The lists in the order to insert them: each after the lists of the hierarchies its entity's
    /// to-one relationships point to, when they do not point back (else in document order), and the
    /// lists of one hierarchy in document order.
    private static func insertionOrder(_ plan: ImportPlan, model: ManagedObjectModel) -> [Int] {
        func root(_ name: String) -> String {
            guard let entity = model.entity(named: name) else { return name }
            return model.ancestors(of: entity).last?.name ?? name
        }
        let roots = plan.lists.map { root(plan.entities[$0.entity].description.name) }
        let pointsTo: [Set<String>] = plan.lists.map { list in
            let entity = plan.entities[list.entity]
            return Set(entity.relationships.filter { !$0.isToMany }.map { root($0.destinationEntityName) })
        }
        var placed = [Bool](repeating: false, count: plan.lists.count)
        var order: [Int] = []
        while order.count < plan.lists.count {
            // A list is ready when the earlier lists of its hierarchy are placed, and so is every list
            // of the other hierarchies it points to.
            func ready(_ list: Int, strictly: Bool) -> Bool {
                for other in plan.lists.indices where !placed[other] && other != list {
                    if roots[other] == roots[list] {
                        if other < list { return false }
                    } else if strictly, pointsTo[list].contains(roots[other]) {
                        return false
                    }
                }
                return true
            }
            let unplaced = plan.lists.indices.filter { !placed[$0] }
            guard let next = unplaced.first(where: { ready($0, strictly: true) }) ?? unplaced.first(where: { ready($0, strictly: false) })
            else { break }
            placed[next] = true
            order.append(next)
        }
        return order
    }
}
