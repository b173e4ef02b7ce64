/// An object's to-one destinations, by slot.
///
/// Most entities have one or two to-one relationships: their destinations live inline, so that reading
/// or inserting an object allocates no array for them (a third and further slots live in an array).
@usableFromInline struct ToOneSlots {
    private var first: ManagedObject?
    private var second: ManagedObject?
    private var rest: [ManagedObject?]
    /// The number of slots.
    @usableFromInline let count: Int

    /// No slots (an object that is not loaded).
    init() {
        rest = []
        count = 0
    }

    /// `count` empty slots.
    @usableFromInline init(count: Int) {
        rest = count > 2 ? .filled(with: nil, count: count - 2) : []
        self.count = count
    }

    /// The slots of `destinations`, in order.
    init(_ destinations: [ManagedObject?]) {
        self.init(count: destinations.count)
        for (slot, destination) in destinations.enumerated() { self[slot] = destination }
    }

    var indices: Range<Int> { 0..<count }

    @usableFromInline subscript(slot: Int) -> ManagedObject? {
        get {
            switch slot {
            case 0: first
            case 1: second
            default: rest[slot - 2]
            }
        }
        set {
            switch slot {
            case 0: first = newValue
            case 1: second = newValue
            default: rest[slot - 2] = newValue
            }
        }
    }

    /// The slots' destinations transformed, in slot order.
    func map<T>(_ transform: (ManagedObject?) throws -> T) rethrows -> [T] {
        var result: [T] = []
        result.reserveCapacity(count)
        for slot in indices { result.append(try transform(self[slot])) }
        return result
    }
}
