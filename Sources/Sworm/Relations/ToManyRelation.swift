/// An unordered to-many relationship of the entity, to objects mapped by `Destination`; reached as a
/// ``ManagedObjectSet`` through ``ManagedObject``'s dynamic members.
public struct ToManyRelation<Destination: ManagedObjectConvertible>: Sendable {
    /// The relationship's name in the model.
    public let name: String

    /// A relation to the model's relationship `name`.
    public init(_ name: String) { self.name = name }
}
