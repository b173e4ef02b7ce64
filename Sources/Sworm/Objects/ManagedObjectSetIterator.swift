import CDQIStore

/// Iterates the members of a to-many relation as ``ManagedObject`` wrappers.
public struct ManagedObjectSetIterator<PlainObject: ManagedObjectConvertible>: IteratorProtocol {
    private var members: IndexingIterator<[CDQIStore.ManagedObject]>
    private let session: ContextSession

    init(members: [CDQIStore.ManagedObject], session: ContextSession) {
        self.members = members.makeIterator()
        self.session = session
    }

    /// The next member, or `nil` at the end.
    public mutating func next() -> ManagedObject<PlainObject>? {
        members.next().map { ManagedObject(instance: $0, session: session) }
    }
}
