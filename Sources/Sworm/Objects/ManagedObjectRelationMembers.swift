import CDQIStore

/// What ``ManagedObjectSet`` and ``ManagedObjectOrderedSet`` share: the live members of a to-many
/// relation of one owning object, iterated, added, removed and deleted through it. Failures of `add`,
/// `remove` and `delete` (an object of another context) are thrown by the enclosing
/// ``PersistentContainer/perform(action:)``; a relationship that cannot be loaded iterates as empty and
/// its error is thrown there too.
public class ManagedObjectRelationMembers<PlainObject: ManagedObjectConvertible>: Sequence {
    let name: String
    let owner: CDQIStore.ManagedObject
    let session: ContextSession

    init(name: String, owner: CDQIStore.ManagedObject, session: ContextSession) {
        self.name = name
        self.owner = owner
        self.session = session
    }

    /// Iterates the current members.
    public func makeIterator() -> ManagedObjectSetIterator<PlainObject> {
        var members: [CDQIStore.ManagedObject] = []
        session.recording { members = try owner.objects(forKey: name) }
        return ManagedObjectSetIterator(members: members, session: session)
    }

    /// Adds an object to the relationship (and sets the inverse).
    public func add(_ object: ManagedObject<PlainObject>) {
        session.recording { try owner.addObject(object.instance, toKey: name) }
    }

    /// Removes an object from the relationship (and clears the inverse).
    public func remove(_ object: ManagedObject<PlainObject>) {
        session.recording { try owner.removeObject(object.instance, fromKey: name) }
    }

    /// Removes an object from the relationship and deletes it.
    public func delete(_ object: ManagedObject<PlainObject>, context: ManagedObjectContext) {
        session.recording {
            try owner.removeObject(object.instance, fromKey: name)
            try context.instance.delete(object.instance)
        }
    }
}
