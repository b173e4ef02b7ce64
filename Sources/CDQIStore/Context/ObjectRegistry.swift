/// A context's objects by ID: at most one object per ID.
///
/// Objects saved in the context's own store and objects inserted in this process (nearly all of them)
/// live in an open-addressing table keyed by root entity number and primary key (or temporary counter),
/// hashed with one multiplication: a fetch registers an object per row, and the general-purpose
/// dictionary's hashing of the whole ID was half the cost of materializing a row. Other IDs (IDs of
/// another store, temporary IDs parsed from URIs of another process) live in a dictionary.
struct ObjectRegistry {
    private struct Slot {
        /// 0 for an empty slot (entity numbers start at 1; temporary IDs use the negated number).
        var root = 0
        var key: Int64 = 0
        var object: ManagedObject?
    }

    /// The host part of the IDs the table holds.
    private let storeIdentifier: String
    /// Linear probing over a power-of-two number of slots, at most three quarters full.
    private var slots: [Slot] = []
    private var tableCount = 0
    private var others: [ManagedObjectID: ManagedObject] = [:]

    init(storeIdentifier: String) {
        self.storeIdentifier = storeIdentifier
    }

    /// The number of objects.
    var count: Int { tableCount + others.count }

    /// Every object, in no particular order.
    var values: [ManagedObject] {
        var values: [ManagedObject] = []
        values.reserveCapacity(count)
        for slot in slots { if let object = slot.object { values.append(object) } }
        values.append(contentsOf: others.values)
        return values
    }

    /// The object with this ID; setting `nil` removes it.
    subscript(id: ManagedObjectID) -> ManagedObject? {
        get {
            guard let (root, key) = tableKey(id) else { return others[id] }
            let (index, found) = find(root: root, key: key)
            return found ? slots[index].object : nil
        }
        set {
            guard let (root, key) = tableKey(id) else {
                others[id] = newValue
                return
            }
            if let newValue {
                let (index, found) = findOrMakeRoom(root: root, key: key)
                if !found { tableCount += 1 }
                slots[index] = Slot(root: root, key: key, object: newValue)
            } else {
                remove(root: root, key: key)
            }
        }
    }

    /// The object with this ID, or the one `make` returns, registered (`isNew`) when there is none.
    mutating func object(for id: ManagedObjectID, orMake make: () -> ManagedObject) -> (object: ManagedObject, isNew: Bool) {
        guard let (root, key) = tableKey(id) else {
            if let object = others[id] { return (object, false) }
            let object = make()
            others[id] = object
            return (object, true)
        }
        let (index, found) = findOrMakeRoom(root: root, key: key)
        if found, let object = slots[index].object { return (object, false) }
        let object = make()
        slots[index] = Slot(root: root, key: key, object: object)
        tableCount += 1
        return (object, true)
    }

    /// Removes the object with this ID and returns it.
    @discardableResult
    mutating func removeValue(forKey id: ManagedObjectID) -> ManagedObject? {
        let object = self[id]
        self[id] = nil
        return object
    }

    /// Removes every object.
    mutating func removeAll() {
        slots = []
        tableCount = 0
        others = [:]
    }

    // MARK: Table

    /// The table key of a permanent ID of this store (the root's number and the primary key) or of a
    /// temporary ID made in this process (the root's number negated and the temporary counter); `nil`
    /// for any other ID.
    private func tableKey(_ id: ManagedObjectID) -> (root: Int, key: Int64)? {
        switch id.identity {
        case .primaryKey(let key):
            guard id.storeIdentifier == storeIdentifier else { return nil }
            return (id.entity.rootNumber, key)
        case .temporary(let uuid):
            guard let counter = TemporaryIdentifiers.counter(of: uuid) else { return nil }
            return (-id.entity.rootNumber, Int64(bitPattern: counter))
        }
    }

    private func home(root: Int, key: Int64) -> Int {
        // Fibonacci hashing: the top bits of the product spread keys evenly, consecutive ones included,
        // so probe runs stay short (a hash that kept consecutive keys together made one run per range of
        // keys, and removals or lookups inside such a run walked all of it).
        let mixed = (UInt64(bitPattern: key) ^ (UInt64(truncatingIfNeeded: root) &<< 48)) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> UInt64(64 - slots.count.trailingZeroBitCount))
    }

    /// The slot holding the key (`found`), or the empty slot where it would go.
    private func find(root: Int, key: Int64) -> (index: Int, found: Bool) {
        guard !slots.isEmpty else { return (0, false) }
        let mask = slots.count - 1
        var index = home(root: root, key: key)
        while slots[index].root != 0 {
            if slots[index].key == key && slots[index].root == root { return (index, true) }
            index = (index + 1) & mask
        }
        return (index, false)
    }

    /// ``find(root:key:)``, growing the table first when one more entry would overfill it.
    private mutating func findOrMakeRoom(root: Int, key: Int64) -> (index: Int, found: Bool) {
        let result = find(root: root, key: key)
        if result.found || (tableCount + 1) * 4 <= slots.count * 3 { return result }
        grow()
        return find(root: root, key: key)
    }

    /// Removes a key, moving later entries of its probe run back so that no lookup stops early.
    private mutating func remove(root: Int, key: Int64) {
        var (hole, found) = find(root: root, key: key)
        guard found else { return }
        slots[hole] = Slot()
        tableCount -= 1
        let mask = slots.count - 1
        var index = hole
        while true {
            index = (index + 1) & mask
            if slots[index].root == 0 { return }
            let home = home(root: slots[index].root, key: slots[index].key)
            // The entry stays when its home slot lies cyclically in (hole, index].
            let stays = hole <= index ? (hole < home && home <= index) : (hole < home || home <= index)
            if stays { continue }
            slots.swapAt(hole, index)
            hole = index
        }
    }

    private mutating func grow() {
        var old = slots
        slots = Array(repeating: Slot(), count: Swift.max(16, old.count * 2))
        let mask = slots.count - 1
        for position in old.indices where old[position].root != 0 {
            var index = home(root: old[position].root, key: old[position].key)
            while slots[index].root != 0 { index = (index + 1) & mask }
            swap(&slots[index], &old[position])
        }
    }
}
