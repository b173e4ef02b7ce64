/// The members of a to-many relationship, in order, with the members it had when last loaded or saved.
///
/// Membership tests are O(1); removal is O(1) for unordered relationships (the last member takes the
/// removed one's place) and O(n) for ordered ones.
struct ToManyStorage {
    private(set) var objects: [ManagedObject]
    /// Each member's position in `objects`.
    private var positions: [ObjectIdentifier: Int]
    /// The members last loaded or saved; `nil` for a relationship of an object never saved (empty).
    var committed: [ManagedObject]?
    let isOrdered: Bool

    init(objects: [ManagedObject], isOrdered: Bool) {
        self.isOrdered = isOrdered
        var unique: [ManagedObject] = []
        var positions: [ObjectIdentifier: Int] = [:]
        for object in objects where positions[ObjectIdentifier(object)] == nil {
            positions[ObjectIdentifier(object)] = unique.count
            unique.append(object)
        }
        self.objects = unique
        self.positions = positions
        committed = unique
    }

    var count: Int { objects.count }

    func contains(_ object: ManagedObject) -> Bool { positions[ObjectIdentifier(object)] != nil }

    /// Appends a member unless it is one already; whether it did.
    @discardableResult
    mutating func append(_ object: ManagedObject) -> Bool {
        // One hash lookup when the object is new (the common case); a member gets its position back.
        if let position = positions.updateValue(objects.count, forKey: ObjectIdentifier(object)) {
            positions[ObjectIdentifier(object)] = position
            return false
        }
        objects.append(object)
        return true
    }

    /// Inserts a member at `index` (clamped) unless it is one already; whether it did.
    @discardableResult
    mutating func insert(_ object: ManagedObject, at index: Int) -> Bool {
        guard positions[ObjectIdentifier(object)] == nil else { return false }
        let position = min(max(index, 0), objects.count)
        objects.insert(object, at: position)
        reindex(from: position)
        return true
    }

    /// Removes a member; whether it was one.
    @discardableResult
    mutating func remove(_ object: ManagedObject) -> Bool {
        guard let position = positions.removeValue(forKey: ObjectIdentifier(object)) else { return false }
        if isOrdered {
            objects.remove(at: position)
            reindex(from: position)
        } else {
            let last = objects.removeLast()
            if position < objects.count {
                objects[position] = last
                positions[ObjectIdentifier(last)] = position
            }
        }
        return true
    }

    /// Replaces the order of the members (same members, new order).
    mutating func reorder(_ ordered: [ManagedObject]) {
        objects = ordered
        reindex(from: 0)
    }

    private mutating func reindex(from start: Int) {
        for position in start..<objects.count { positions[ObjectIdentifier(objects[position])] = position }
    }

    /// Whether the members (or, for an ordered relationship, their order) differ from the committed ones.
    var isChanged: Bool {
        guard let committed else { return !objects.isEmpty }
        guard committed.count == objects.count else { return true }
        if isOrdered { return zip(committed, objects).contains { $0 !== $1 } }
        return committed.contains { positions[ObjectIdentifier($0)] == nil }
    }
}

extension [ToManyStorage?] {
    /// Whether no slot holds loaded members: every to-many relationship of the object is still to load.
    var allUnloaded: Bool {
        var position = 0
        while position < count {
            if self[position] != nil { return false }
            position += 1
        }
        return true
    }
}
