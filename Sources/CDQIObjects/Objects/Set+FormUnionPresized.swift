extension Set where Element == ManagedObject {
    /// The set of `objects`, built at its size: room for all of them is made once (no growing and
    /// rehashing as it fills), and each object is added without the copy of the member `insert` hands back.
    init(presized objects: [ManagedObject]) {
        self.init(minimumCapacity: objects.count)
        objects.forEachUnretained { _, object in update(with: object) }
    }

    /// Adds `members` (objects that something else keeps alive meanwhile), making room for all of them
    /// first (one allocation instead of growing).
    mutating func formUnion(presized members: [Unmanaged<ManagedObject>]) {
        guard !members.isEmpty else { return }
        reserveCapacity(count + members.count)
        for member in members { update(with: member.takeUnretainedValue()) }
    }
}
