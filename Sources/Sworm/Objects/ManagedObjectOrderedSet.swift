/// The members of an ordered to-many relation, in the relationship's order (`add` appends), live on the
/// owning object: see ``ManagedObjectRelationMembers``.
public final class ManagedObjectOrderedSet<PlainObject: ManagedObjectConvertible>: ManagedObjectRelationMembers<PlainObject> {}
