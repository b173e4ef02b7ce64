/// A context's objects by ID: at most one object per ID.
///
/// Keys are (root entity number, primary key) for objects saved in the context's own store, and
/// (negated root entity number, temporary counter) for objects inserted in this process. Both come
/// densely numbered (Core Data numbers rows from 1; the counter counts up), so most objects live in
/// runs: one array per root and kind, indexed by key from a base. A fetch of many rows fills a run in
/// order and a save moves objects from one run to another, where a hashed table touched a random cache
/// line per object. A key far beyond what its run could hold at a few slots per registered object lives
/// in an open-addressing table hashed with one multiplication. Other IDs (IDs of another store,
/// temporary IDs parsed from URIs of another process) live in a dictionary.
struct ObjectRegistry {
    private struct Slot {
        /// 0 for an empty slot (entity numbers start at 1; temporary IDs use the negated number).
        var root = 0
        var key: Int64 = 0
        var object: ManagedObject?
    }

    /// The objects of one root and kind whose keys lie in `base ..< base + objects.count`; such a key
    /// lives here and nowhere else.
    private struct Run {
        var base: Int64 = 0
        var objects: [ManagedObject?] = []
        /// The number of non-nil elements; a run that empties lets its memory go unless it is small (see
        /// ``keptRunRoom``).
        var live = 0
    }

    /// The host part of the IDs the table holds.
    private let store: StoreNumber
    /// Linear probing over a power-of-two number of slots, at most three quarters full.
    private var slots: [Slot] = []
    private var tableCount = 0
    /// Runs by ``runIndex(root:)``.
    private var runs: [Run] = []
    private var runCount = 0
    private var others: [ManagedObjectID: ManagedObject] = [:]

    init(store: StoreNumber) {
        self.store = store
    }

    /// The number of objects.
    var count: Int { runCount + tableCount + others.count }

    /// Every object, in no particular order.
    var values: [ManagedObject] {
        var values: [ManagedObject] = []
        values.reserveCapacity(count)
        for run in runs { for case let object? in run.objects { values.append(object) } }
        for slot in slots { if let object = slot.object { values.append(object) } }
        values.append(contentsOf: others.values)
        return values
    }

    /// The object with this ID; setting `nil` removes it.
    subscript(id: ManagedObjectID) -> ManagedObject? {
        get {
            guard let (root, key) = tableKey(id) else { return others[id] }
            return object(root: root, key: key)
        }
        set {
            guard let (root, key) = tableKey(id) else {
                others[id] = newValue
                return
            }
            if let newValue {
                insert(newValue, root: root, key: key)
            } else {
                removeObject(root: root, key: key)
            }
        }
    }

    /// The object of table key (`root`, `key`) (see ``tableKey(_:)``; for a row of this store, the root
    /// entity's number and the primary key). Rows read from the store are looked up this way, without
    /// making an ID first.
    func object(root: Int, key: Int64) -> ManagedObject? {
        if let (run, index) = runPosition(root: root, key: key) { return runs[run].objects[index] }
        let (index, found) = find(root: root, key: key)
        return found ? slots[index].object : nil
    }

    /// Removes the object of table key (`root`, `key`) (see ``object(root:key:)``), if any.
    mutating func removeObject(root: Int, key: Int64) {
        if let (run, index) = runPosition(root: root, key: key) {
            setRunElement(nil, run: run, index: index)
        } else {
            remove(root: root, key: key)
        }
    }

    /// Removes the object of table key (`root`, `key`) when it is `expected`, in one lookup (where
    /// ``object(root:key:)`` then ``removeObject(root:key:)`` took two); whether it was removed.
    mutating func removeObject(root: Int, key: Int64, ifIdenticalTo expected: ObjectIdentifier) -> Bool {
        if let (run, index) = runPosition(root: root, key: key) {
            // Compared by identity where it lies: binding the object counted a reference on it.
            guard runs[run].objects[index].map(ObjectIdentifier.init) == expected else { return false }
            setRunElement(nil, run: run, index: index)
            return true
        }
        let (index, found) = find(root: root, key: key)
        guard found, slots[index].object.map(ObjectIdentifier.init) == expected else { return false }
        remove(root: root, key: key)
        return true
    }

    /// Registers an object under table key (`root`, `key`) (see ``object(root:key:)``).
    mutating func insert(_ object: ManagedObject, root: Int, key: Int64) {
        if let (run, index) = runPosition(root: root, key: key, growing: true) {
            setRunElement(object, run: run, index: index)
            return
        }
        let (index, found) = findOrMakeRoom(root: root, key: key)
        if !found { tableCount += 1 }
        slots[index] = Slot(root: root, key: key, object: object)
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
        runs = []
        runCount = 0
        others = [:]
    }

    // MARK: Runs

    /// Permanent keys of root `r` in run `2r`, temporary ones (root `-r`) in run `2r + 1`.
    private func runIndex(root: Int) -> Int { root > 0 ? 2 * root : 1 - 2 * root }

    /// The run and position of a key, or `nil` when the key lives in the table.
    private func runPosition(root: Int, key: Int64) -> (run: Int, index: Int)? {
        let run = runIndex(root: root)
        guard run < runs.count else { return nil }
        let offset = key &- runs[run].base
        guard offset >= 0, offset < runs[run].objects.count else { return nil }
        return (run, Int(offset))
    }

    /// ``runPosition(root:key:)``; with `growing`, a run too short for the key first grows to hold it,
    /// unless that would leave it mostly empty (more than eight slots per registered object, beyond the
    /// first thousand). A run with no objects starts at the key's multiple of 1,024 for primary keys (0
    /// for the first ones) and at the key for temporary counters.
    private mutating func runPosition(root: Int, key: Int64, growing: Bool) -> (run: Int, index: Int)? {
        let run = runIndex(root: root)
        // The usual case first, read in place: calling the non-mutating lookup from here copied the
        // whole registry (retaining each of its arrays) per call.
        if run < runs.count {
            let offset = key &- runs[run].base
            if offset >= 0, offset < runs[run].objects.count { return (run, Int(offset)) }
        }
        guard growing, root != 0, key >= 0 else { return nil }
        if runs.count <= run { runs.append(contentsOf: Array(repeating: Run(), count: run + 1 - runs.count)) }
        // A fetch cursor empties its run after each batch and starts the next far from the last: a run
        // with no objects restarts at the key (keeping the room it has, all of it empty) rather than
        // send every key beyond its range to the table.
        let restarts = runs[run].live == 0
        let base = restarts ? (root > 0 ? key & ~1023 : key) : runs[run].base
        let offset = key &- base
        guard offset >= 0, offset < Swift.max(1024, 8 * Int64(count + 1)) else { return nil }
        let oldCount = runs[run].objects.count
        let newCount =
            offset < oldCount ? oldCount : Swift.max(64, 1 << (Int64.bitWidth - offset.leadingZeroBitCount), 2 * oldCount)
        // A range that would pass Int64.max (a key near it) stays in the table.
        guard Int64.max - base >= Int64(newCount) else { return nil }
        runs[run].base = base
        if newCount > oldCount {
            // Appended one by one into reserved room: `append(contentsOf: Array(repeating:count:))` went
            // through unspecialized code and cost as much as the registrations it made room for.
            runs[run].objects.reserveCapacity(newCount)
            for _ in oldCount..<newCount { runs[run].objects.append(nil) }
        }
        // Keys of the range the run newly covers (all of it when it restarts) that the table holds move over.
        let low = base + Int64(restarts ? 0 : oldCount), high = base + Int64(newCount)
        if tableCount > 0 {
            for slot in slots where slot.root == root && slot.key >= low && slot.key < high {
                setRunElement(slot.object, run: run, index: Int(slot.key - base))
                remove(root: root, key: slot.key)
            }
        }
        return (run, Int(offset))
    }

    /// The most room a run with no objects keeps for its next keys (128 KiB of references): a fetch
    /// cursor's run empties after every batch, and making its room again cost more than registering.
    private static let keptRunRoom = 16_384

    private mutating func setRunElement(_ object: ManagedObject?, run: Int, index: Int) {
        // Swapped in through the runs' buffer: reading the old element to compare it with nil retained and
        // released it, and every access through `runs[run]` checked again that the runs were unique.
        var element = object
        let change = runs.withUnsafeMutableBufferPointer { runs in
            swap(&element, &runs[run].objects[index])
            let change = (object == nil ? 0 : 1) - (element == nil ? 0 : 1)
            runs[run].live += change
            if change != 0, runs[run].live == 0, runs[run].objects.count > Self.keptRunRoom { runs[run].objects = [] }
            return change
        }
        runCount += change
    }

    // MARK: Table

    /// The table key of a permanent ID of this store (the root's number and the primary key) or of a
    /// temporary ID made in this process (the root's number negated and the temporary counter); `nil`
    /// for any other ID.
    private func tableKey(_ id: ManagedObjectID) -> (root: Int, key: Int64)? {
        switch id.identity {
        case .primaryKey(let key):
            guard id.store == store else { return nil }
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
