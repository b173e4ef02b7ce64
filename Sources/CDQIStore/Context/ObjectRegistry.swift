/// A context's objects by ID: at most one object per ID.
///
/// Objects saved in the context's own store live in one array per hierarchy, indexed by primary key:
/// Core Data numbers rows densely from 1, so a fetch of many rows fills such an array in order (a
/// hashed table touched a random cache line per row). A key far beyond what the array could hold at a
/// few slots per registered object, and objects inserted in this process (keyed by root entity number and
/// temporary counter), live in an open-addressing table hashed with one multiplication. Other IDs (IDs
/// of another store, temporary IDs parsed from URIs of another process) live in a dictionary.
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
    /// Per root entity number, objects by primary key; a key below an array's count lives there and
    /// nowhere else.
    private var dense: [[ManagedObject?]] = []
    private var denseCount = 0
    private var others: [ManagedObjectID: ManagedObject] = [:]

    init(storeIdentifier: String) {
        self.storeIdentifier = storeIdentifier
    }

    /// The number of objects.
    var count: Int { denseCount + tableCount + others.count }

    /// Every object, in no particular order.
    var values: [ManagedObject] {
        var values: [ManagedObject] = []
        values.reserveCapacity(count)
        for objects in dense { for case let object? in objects { values.append(object) } }
        for slot in slots { if let object = slot.object { values.append(object) } }
        values.append(contentsOf: others.values)
        return values
    }

    /// The object with this ID; setting `nil` removes it.
    subscript(id: ManagedObjectID) -> ManagedObject? {
        get {
            guard let (root, key) = tableKey(id) else { return others[id] }
            if let index = denseIndex(root: root, key: key) { return dense[root][index] }
            let (index, found) = find(root: root, key: key)
            return found ? slots[index].object : nil
        }
        set {
            guard let (root, key) = tableKey(id) else {
                others[id] = newValue
                return
            }
            if let index = denseIndex(root: root, key: key, growing: newValue != nil) {
                let old = dense[root][index]
                dense[root][index] = newValue
                denseCount += (newValue == nil ? 0 : 1) - (old == nil ? 0 : 1)
            } else if let newValue {
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
        return object(root: root, key: key, orMake: make)
    }

    /// The object of table key (`root`, `key`) (see ``tableKey(_:)``; for a row of this store, the root
    /// entity's number and the primary key), or the one `make` returns, registered (`isNew`) when there is
    /// none. Rows read from the store are registered this way, without making an ID first.
    mutating func object(root: Int, key: Int64, orMake make: () -> ManagedObject) -> (object: ManagedObject, isNew: Bool) {
        if let index = denseIndex(root: root, key: key, growing: true) {
            if let object = dense[root][index] { return (object, false) }
            let object = make()
            dense[root][index] = object
            denseCount += 1
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
        dense = []
        denseCount = 0
        others = [:]
    }

    // MARK: Arrays by primary key

    /// The position of a permanent key in its hierarchy's array, or `nil` when the key lives in the
    /// table. With `growing`, an array too short for the key first grows to hold it, unless that would
    /// leave it mostly empty (more than eight slots per registered object, beyond the first thousand).
    private mutating func denseIndex(root: Int, key: Int64, growing: Bool) -> Int? {
        if let index = denseIndex(root: root, key: key) { return index }
        guard growing, root > 0, key >= 0, key < Swift.max(1024, 8 * Int64(count + 1)) else { return nil }
        if dense.count <= root { dense.append(contentsOf: Array(repeating: [], count: root + 1 - dense.count)) }
        let oldCount = dense[root].count
        let newCount = Swift.max(64, 1 << (Int64.bitWidth - key.leadingZeroBitCount), 2 * oldCount)
        dense[root].append(contentsOf: Array(repeating: nil, count: newCount - oldCount))
        // Keys of the new range that the table holds move over.
        if tableCount > 0 {
            for slot in slots where slot.root == root && slot.key >= oldCount && slot.key < newCount {
                dense[root][Int(slot.key)] = slot.object
                denseCount += 1
                remove(root: root, key: slot.key)
            }
        }
        return Int(key)
    }

    private func denseIndex(root: Int, key: Int64) -> Int? {
        guard root > 0, root < dense.count, key >= 0, key < dense[root].count else { return nil }
        return Int(key)
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
