/// The values an object's snapshot holds for the slots of one kind (attributes or to-one
/// relationships) written since the snapshot was taken, in slot order. A slot not listed has not been
/// written: its snapshot value is its current one.
///
/// Kept apart rather than as a full second copy of the slots: an object read from the store holds its
/// values once and is written in place, and a save that changes one attribute keeps and frees one entry
/// rather than copying and freeing every value. The lowest slot's entry lives inline (most changes to
/// an object are to one slot: they allocate nothing); the others in an array.
struct SnapshotOriginals<Value> {
    struct Entry {
        var slot: Int
        var value: Value
    }

    /// The entry of the lowest slot kept.
    private var first: Entry?
    /// The entries of the other slots kept, by increasing slot.
    private var rest: [Entry] = []

    var isEmpty: Bool { first == nil }

    /// The number of entries.
    var count: Int { first == nil ? 0 : 1 + rest.count }

    /// The entry at `position` (0 ..< ``count``), by increasing slot.
    subscript(position: Int) -> Entry {
        // `first` is set whenever there is an entry: position 0 of a non-empty list.
        position == 0 ? first ?? rest[0] : rest[position - 1]
    }

    /// The value kept for `slot`, or `nil` when the slot was not written since the snapshot.
    func entry(for slot: Int) -> Entry? {
        guard let first else { return nil }
        if first.slot == slot { return first }
        var position = 0
        while position < rest.count {
            if rest[position].slot == slot { return rest[position] }
            position += 1
        }
        return nil
    }

    /// Keeps `current()` as `slot`'s snapshot value unless one is kept already (the first write after
    /// the snapshot is the one that replaces the snapshot's value).
    mutating func keep(_ slot: Int, current: () -> Value) {
        guard let lowest = first else {
            first = Entry(slot: slot, value: current())
            return
        }
        if lowest.slot == slot { return }
        if slot < lowest.slot {
            rest.insert(lowest, at: 0)
            first = Entry(slot: slot, value: current())
            return
        }
        var position = rest.count
        while position > 0 && rest[position - 1].slot >= slot {
            if rest[position - 1].slot == slot { return }
            position -= 1
        }
        let entry = Entry(slot: slot, value: current())
        if position == rest.count {
            rest.append(entry)
        } else {
            rest.insert(entry, at: position)
        }
    }

    /// Forgets every kept value (the current values became the snapshot).
    mutating func removeAll() {
        if first != nil { first = nil }
        if !rest.isEmpty { rest = [] }
    }
}
