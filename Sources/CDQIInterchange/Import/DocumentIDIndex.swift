/// The objects of a plan by `_id`: a hash table of positions in ``ImportPlan/objects`` (open addressing),
/// whose keys are the `_id`s the plan's objects hold already, so that each `_id` is stored once (a
/// dictionary of 200,000 `_id`s took more memory than the rest of the plan). `_id`s compare as
/// ``DocumentID``s do, scalar by scalar.
struct DocumentIDIndex {
    /// Positions in the plan's objects, -1 for an empty slot; the count is a power of 2.
    private var slots = [Int](repeating: -1, count: 16)
    private var count = 0

    /// The position of the object whose `_id` is `id`, if there is one.
    func position(of id: String, in objects: [ImportPlan.Object]) -> Int? {
        let mask = slots.count - 1
        var slot = Self.hash(id) & mask
        while true {
            let position = slots[slot]
            if position < 0 { return nil }
            if let other = objects[position].id, other.unicodeScalars.elementsEqual(id.unicodeScalars) { return position }
            slot = (slot + 1) & mask
        }
    }

    /// Adds the object at `position` of `objects`, whose `_id` no object before it has.
    mutating func insert(_ position: Int, in objects: [ImportPlan.Object]) {
        guard let id = objects[position].id else { return }
        if (count + 1) * 2 > slots.count { grow(objects) }
        place(position, hash: Self.hash(id))
        count += 1
    }

    private mutating func place(_ position: Int, hash: Int) {
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = position
    }

    private mutating func grow(_ objects: [ImportPlan.Object]) {
        let old = slots
        slots = [Int](repeating: -1, count: old.count * 2)
        for position in old where position >= 0 {
            if let id = objects[position].id { place(position, hash: Self.hash(id)) }
        }
    }

    private static func hash(_ id: String) -> Int {
        var hasher = Hasher()
        hasher.combine(DocumentID(id))
        return hasher.finalize()
    }
}
