import CDQIStore

/// Iterates the members of a to-many relation as ``ManagedObject`` wrappers.
public struct ManagedObjectSetIterator<PlainObject: ManagedObjectConvertible>: IteratorProtocol {
    private var members: IndexingIterator<[CDQIStore.ManagedObject]>
    private let log: ChangeErrorLog

    init(members: [CDQIStore.ManagedObject], log: ChangeErrorLog) {
        self.members = members.makeIterator()
        self.log = log
    }

    /// The next member, or `nil` at the end.
    public mutating func next() -> ManagedObject<PlainObject>? {
        members.next().map { ManagedObject(instance: $0, log: log) }
    }
}
