extension Set {
    /// Adds `members`, making room for all of them first (one allocation instead of growing).
    mutating func formUnion(presized members: [Element]) {
        guard !members.isEmpty else { return }
        if isEmpty {
            self = Set(members)
        } else {
            reserveCapacity(count + members.count)
            for member in members { insert(member) }
        }
    }
}
