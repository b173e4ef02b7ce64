/// The values an object's snapshot holds for the slots of one kind (attributes or to-one
/// relationships) written since the snapshot was taken, in slot order. A slot not listed has not been
/// written: its snapshot value is its current one.
///
/// Kept apart rather than as a full second copy of the slots: an object read from the store holds its
/// values once and is written in place, and a save that changes one attribute keeps and frees one entry
/// rather than copying and freeing every value.
struct SnapshotOriginals<Value> {
    struct Entry {
        var slot: Int
        var value: Value
    }

    /// The kept values, by increasing slot.
    private(set) var entries: [Entry] = []

    var isEmpty: Bool { entries.isEmpty }

    /// The value kept for `slot`, or `nil` when the slot was not written since the snapshot.
    func entry(for slot: Int) -> Entry? {
        var position = 0
        while position < entries.count {
            if entries[position].slot == slot { return entries[position] }
            position += 1
        }
        return nil
    }

    /// Keeps `current()` as `slot`'s snapshot value unless one is kept already (the first write after
    /// the snapshot is the one that replaces the snapshot's value).
    mutating func keep(_ slot: Int, current: () -> Value) {
        var position = entries.count
        while position > 0 && entries[position - 1].slot >= slot {
            if entries[position - 1].slot == slot { return }
            position -= 1
        }
        let entry = Entry(slot: slot, value: current())
        if position == entries.count {
            entries.append(entry)
        } else {
            entries.insert(entry, at: position)
        }
    }

    /// Forgets every kept value (the current values became the snapshot).
    mutating func removeAll() {
        if !entries.isEmpty { entries = [] }
    }
}
