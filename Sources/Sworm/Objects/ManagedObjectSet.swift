/// The members of an unordered to-many relation (iteration order is unspecified), live on the owning
/// object: see ``ManagedObjectRelationMembers``.
public final class ManagedObjectSet<PlainObject: ManagedObjectConvertible>: ManagedObjectRelationMembers<PlainObject> {}
