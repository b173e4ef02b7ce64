/// How many times each 64-bit key was counted, for counting once per deleted row (``DeleteRuleBumps``):
/// open addressing with linear probing and Fibonacci hashing over a power-of-two table kept at most
/// half full. A few instructions and a little code per count, where a `Dictionary` runs a SipHash and
/// its generic lookup, whose code evicts SQLite's from the instruction cache between rows.
///
/// The table is a value holding its buffer: its owner calls ``release()`` exactly once, and never copies it.
struct KeyCounts {
    /// A key and its count; a count of 0 marks an empty entry (a key counted has at least 1).
    private struct Entry {
        var key: Int64
        var count: Int64
    }

    private var entries: UnsafeMutablePointer<Entry>
    private var capacity: Int
    /// `64 - log2(capacity)`: the high bits of the multiplied key index the table.
    private var shift: UInt64
    /// How many distinct keys were counted.
    private(set) var count = 0

    init() {
        capacity = 16
        shift = 60
        entries = .allocate(capacity: capacity)
        entries.initialize(repeating: Entry(key: 0, count: 0), count: capacity)
    }

    /// Frees the table.
    func release() {
        entries.deinitialize(count: capacity)
        entries.deallocate()
    }

    /// Counts `key` once more.
    mutating func add(_ key: Int64) {
        let mask = capacity - 1
        var index = Self.home(key, shift)
        while entries[index].count != 0 {
            if entries[index].key == key {
                entries[index].count &+= 1
                return
            }
            index = (index + 1) & mask
        }
        entries[index] = Entry(key: key, count: 1)
        count += 1
        if count > capacity / 2 { grow() }
    }

    /// Every key counted and its count, in no particular order.
    var pairs: [(key: Int64, count: Int64)] {
        var pairs: [(key: Int64, count: Int64)] = []
        pairs.reserveCapacity(count)
        for index in 0..<capacity where entries[index].count != 0 { pairs.append((entries[index].key, entries[index].count)) }
        return pairs
    }

    /// The entry a key tries first.
    private static func home(_ key: Int64, _ shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// Doubles the table and places every entry again.
    private mutating func grow() {
        let old = entries, oldCapacity = capacity
        capacity = oldCapacity * 2
        shift -= 1
        entries = .allocate(capacity: capacity)
        entries.initialize(repeating: Entry(key: 0, count: 0), count: capacity)
        let mask = capacity - 1
        for position in 0..<oldCapacity where old[position].count != 0 {
            var index = Self.home(old[position].key, shift)
            while entries[index].count != 0 { index = (index + 1) & mask }
            entries[index] = old[position]
        }
        old.deinitialize(count: oldCapacity)
        old.deallocate()
    }
}
