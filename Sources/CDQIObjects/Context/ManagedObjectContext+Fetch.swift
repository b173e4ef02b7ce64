import CDQIPredicate
import Foundation

extension ManagedObjectContext {
    /// The objects matching a request, as Core Data's `fetch` returns them: the store's rows, merged
    /// with this context's unsaved changes (inserted objects that match are included, deleted ones are
    /// left out, changed ones are judged by their current values).
    ///
    /// The predicate and the order run in SQL (one statement, every value bound). Only when the context
    /// has unsaved changes to objects of the fetched entity are those objects evaluated in memory, with
    /// the in-memory evaluator, and the merged result sorted in memory the way SQL sorts (nil first when
    /// ascending, strings by code point for `compare:`), before the request's offset and limit apply.
    /// Objects whose rows the query read come back filled; with unsaved changes to merge, they may come
    /// back as faults unless `returnsObjectsAsFaults` is `false`. `relationshipKeyPathsForPrefetching` loads
    /// related objects in batches (see ``FetchRequest``).
    ///
    /// - Throws: ``PredicateSQLError`` for a predicate a fetch cannot run, ``SQLiteError``/``StoreError``
    ///   from the store, ``PredicateEvaluationError`` when a changed object cannot be evaluated.
    public func fetch(_ request: FetchRequest) throws -> [ManagedObject] {
        processPendingMerges()
        processPendingChanges()
        let objects = try fetchMatchingObjects(request)
        if !request.returnsObjectsAsFaults { try load(objects) }
        if !request.relationshipKeyPathsForPrefetching.isEmpty {
            try prefetch(request.relationshipKeyPathsForPrefetching, for: objects)
        }
        return objects
    }

    func fetchMatchingObjectsWithoutProcessing(_ request: FetchRequest) throws -> [ManagedObject] {
        try fetchMatchingObjects(request)
    }

    private func fetchMatchingObjects(_ request: FetchRequest) throws -> [ManagedObject] {
        guard pendingObjects(for: request).isEmpty, let layout = entityLayout(named: request.entityName) else {
            return try fetchObjectIDs(request).map { object(with: $0) }
        }
        // Whole rows in the same query: objects not yet loaded are filled at once, no query per object.
        var reader = RowObjectReader(context: self)
        var objects: [ManagedObject] = []
        try coordinator.store.readObjects(request, layout: layout, reader: &reader, into: &objects)
        reader.awakeFilledObjects(in: objects)
        return objects
    }

    /// The IDs of the objects ``fetch(_:)`` returns, in the same order.
    public func fetchObjectIDs(_ request: FetchRequest) throws -> [ManagedObjectID] {
        processPendingMerges()
        processPendingChanges()
        let pending = pendingObjects(for: request)
        if pending.isEmpty {
            let references = try coordinator.store.fetchObjectReferences(request)
            return references.compactMap { objectID(for: $0) }
        }
        // Unsaved changes: fetch without the window, merge, sort in memory, then apply the window.
        var unwindowed = request
        unwindowed.fetchLimit = 0
        unwindowed.fetchOffset = 0
        let references = try coordinator.store.fetchObjectReferences(unwindowed)
        let changed = Set(pending.map(\.objectID))
        var matches: [ManagedObject] = references.compactMap { objectID(for: $0) }
            .filter { !changed.contains($0) }
            .map { object(with: $0) }
        for object in pending where !object.deletedFlag {
            if try request.predicate?.evaluate(with: object) ?? true { matches.append(object) }
        }
        let order = InMemoryOrder(descriptors: request.sortDescriptors)
        matches = try order.sorted(matches)
        // Out-of-range windows clamp (a negative offset is none, as in SQL), never trap.
        let start = min(max(request.fetchOffset, 0), matches.count)
        let end =
            request.fetchLimit > 0 && request.fetchLimit < matches.count - start
            ? start + request.fetchLimit : matches.count
        return matches[start..<end].map(\.objectID)
    }

    /// The number of objects ``fetch(_:)`` would return, unsaved changes and window included.
    public func count(for request: FetchRequest) throws -> Int {
        processPendingMerges()
        processPendingChanges()
        if pendingObjects(for: request).isEmpty {
            return try coordinator.store.count(request)
        }
        return try fetchObjectIDs(request).count
    }

    /// This context's objects with unsaved changes that belong to the fetched entity.
    func pendingObjects(for request: FetchRequest) -> [ManagedObject] {
        guard !touched.values.isEmpty else { return [] }
        return touched.values.filter { object in
            object.hasChanges
                && (request.includesSubentities
                    ? object.entity.lineage.contains(request.entityName) : object.entity.name == request.entityName)
        }
    }
}

/// Sorts objects the way the SQL of a fetch sorts rows, for results merged with unsaved changes.
struct InMemoryOrder {
    let descriptors: [FetchSortDescriptor]

    func sorted(_ objects: [ManagedObject]) throws -> [ManagedObject] {
        var keyed: [(object: ManagedObject, keys: [StoredValue])] = []
        keyed.reserveCapacity(objects.count)
        for object in objects {
            var keys: [StoredValue] = []
            for descriptor in descriptors { keys.append(try Self.value(of: object, at: descriptor.keyPath)) }
            keyed.append((object, keys))
        }
        keyed.sort { left, right in
            for (index, descriptor) in descriptors.enumerated() {
                let order = Self.compare(left.keys[index], right.keys[index], descriptor.comparison)
                if order != .orderedSame {
                    return descriptor.ascending ? order == .orderedAscending : order == .orderedDescending
                }
            }
            // Ties in primary-key order, as the SQL breaks them; unsaved objects last.
            return Self.tieBreak(left.object.objectID, right.object.objectID)
        }
        return keyed.map(\.object)
    }

    static func tieBreak(_ left: ManagedObjectID, _ right: ManagedObjectID) -> Bool {
        switch (left.primaryKey, right.primaryKey) {
        case let (l?, r?): return l < r
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil): return left.uriString < right.uriString
        }
    }

    /// The value at a key path through to-one relationships; nil past a nil relationship.
    static func value(of object: ManagedObject, at keyPath: String) throws -> StoredValue {
        var current: any KeyValueAccessible = object
        let keys = keyPath.split(separator: ".").map(String.init)
        for (index, key) in keys.enumerated() {
            switch try current.predicateValue(forKey: key) {
            case .scalar(let value):
                return index == keys.count - 1 ? value : .null
            case .object(let next):
                if index == keys.count - 1 {
                    return next.predicateObjectID.map(StoredValue.objectID) ?? .null
                }
                current = next
            default:
                throw PredicateSQLError.toManyKeyNotAllowed(keyPath: keyPath)
            }
        }
        return .null
    }

    /// SQLite's order for one sort key: NULL first; numbers by value; text by the descriptor's
    /// comparison (code points for `compare:`); blobs bytewise.
    static func compare(
        _ left: StoredValue, _ right: StoredValue, _ comparison: FetchSortDescriptor.Comparison
    )
        -> ComparisonResult
    {
        switch (left, right) {
        case (.null, .null): return .orderedSame
        case (.null, _): return .orderedAscending
        case (_, .null): return .orderedDescending
        default: break
        }
        if let l = number(left), let r = number(right) {
            return l < r ? .orderedAscending : (l > r ? .orderedDescending : .orderedSame)
        }
        switch (left, right) {
        case (.string(let l), .string(let r)):
            switch comparison {
            case .compare: return scalarOrder(l, r)
            case .caseInsensitiveCompare:
                return scalarOrder(
                    StringFolding.fold(l, options: .caseInsensitive), StringFolding.fold(r, options: .caseInsensitive))
            case .localizedCompare: return l.localizedCompare(r)
            case .localizedCaseInsensitiveCompare: return l.localizedCaseInsensitiveCompare(r)
            case .localizedStandardCompare: return l.localizedStandardCompare(r)
            }
        case (.uri(let l), .uri(let r)): return scalarOrder(l.absoluteString, r.absoluteString)
        case (.data(let l), .data(let r)): return byteOrder(Array(l), Array(r))
        case (.uuid(let l), .uuid(let r)):
            return byteOrder(withUnsafeBytes(of: l.uuid) { Array($0) }, withUnsafeBytes(of: r.uuid) { Array($0) })
        default:
            return .orderedSame
        }
    }

    private static func number(_ value: StoredValue) -> Double? {
        switch value {
        case .integer(let i): Double(i)
        case .double(let d): d
        case .decimal(let d): StoredValue.decimalAsDouble(d)
        case .bool(let b): b ? 1 : 0
        case .date(let seconds): seconds
        default: nil
        }
    }

    private static func scalarOrder(_ l: String, _ r: String) -> ComparisonResult {
        if l.unicodeScalars.elementsEqual(r.unicodeScalars) { return .orderedSame }
        return l.unicodeScalars.lexicographicallyPrecedes(r.unicodeScalars) ? .orderedAscending : .orderedDescending
    }

    private static func byteOrder(_ l: [UInt8], _ r: [UInt8]) -> ComparisonResult {
        if l == r { return .orderedSame }
        return l.lexicographicallyPrecedes(r) ? .orderedAscending : .orderedDescending
    }
}

extension ManagedObjectContext {
    /// How the store runs `request`: its SQL, bindings, SQLite's query plan and plain-words warnings
    /// (see ``FetchExplanation``). Nothing is fetched, and unsaved changes play no part.
    public func explain(_ request: FetchRequest) throws -> FetchExplanation {
        try coordinator.store.explain(request)
    }
}

extension FetchRequest {
    /// How `context`'s store runs this request: see ``ManagedObjectContext/explain(_:)``.
    public func explain(in context: ManagedObjectContext) throws -> FetchExplanation {
        try context.explain(self)
    }
}
