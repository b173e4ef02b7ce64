import CDQIStore

extension ManagedObject {
    /// The destination of a to-one relation (`book.cover`); setting it sets the relationship and its
    /// inverse. A failure (an object of another context) is thrown by the enclosing `perform`.
    public subscript<Destination: ManagedObjectConvertible>(
        dynamicMember keyPath: KeyPath<PlainObject.Relations, ToOneRelation<Destination>>
    ) -> ManagedObject<Destination>? {
        get {
            let name = PlainObject.relations[keyPath: keyPath].name
            do {
                return try instance.object(forKey: name).map { ManagedObject<Destination>(instance: $0, session: session) }
            } catch {
                session.record(error)
                return nil
            }
        }
        set {
            let name = PlainObject.relations[keyPath: keyPath].name
            session.recording { try instance.setValue(newValue?.instance, forKey: name) }
        }
    }

    /// The members of an unordered to-many relation (`author.books`), live: adding and removing
    /// changes the relationship.
    public subscript<Destination: ManagedObjectConvertible>(
        dynamicMember keyPath: KeyPath<PlainObject.Relations, ToManyRelation<Destination>>
    ) -> ManagedObjectSet<Destination> {
        ManagedObjectSet(name: PlainObject.relations[keyPath: keyPath].name, owner: instance, session: session)
    }

    /// The members of an ordered to-many relation (`book.reviews`), in the relationship's order, live.
    public subscript<Destination: ManagedObjectConvertible>(
        dynamicMember keyPath: KeyPath<PlainObject.Relations, ToManyOrderedRelation<Destination>>
    ) -> ManagedObjectOrderedSet<Destination> {
        ManagedObjectOrderedSet(name: PlainObject.relations[keyPath: keyPath].name, owner: instance, session: session)
    }

    /// Sets a to-one relation to a plain value: encodes it into the current destination, or inserts a
    /// new destination when there is none; `nil` deletes the current destination.
    /// - Throws: the store's error, or ``ManagedObjectContext/Error/unknownEntity(_:)``.
    @discardableResult
    public func set<Destination: ManagedObjectConvertible>(
        _ keyPath: KeyPath<PlainObject.Relations, ToOneRelation<Destination>>,
        value: Destination?,
        context: ManagedObjectContext
    ) throws -> Self {
        let name = PlainObject.relations[keyPath: keyPath].name
        let current = try instance.object(forKey: name)
        guard let value else {
            if let current { try context.instance.delete(current) }
            return self
        }
        if let current {
            try ManagedObject<Destination>(instance: current, session: session).encodeThrowing(value)
        } else {
            let inserted = try context.insert(value)
            try instance.setValue(inserted.instance, forKey: name)
        }
        return self
    }

    /// Deletes the destination of a to-one relation, if any.
    @discardableResult
    public func delete(
        _ keyPath: KeyPath<PlainObject.Relations, ToOneRelation<some ManagedObjectConvertible>>,
        context: ManagedObjectContext
    ) -> Self {
        let name = PlainObject.relations[keyPath: keyPath].name
        session.recording {
            if let current = try instance.object(forKey: name) { try context.instance.delete(current) }
        }
        return self
    }
}
