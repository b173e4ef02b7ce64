/// A to-one relationship of the entity, to objects mapped by `Destination`. Listed in a type's
/// `Relations` and reached through ``ManagedObject``'s dynamic members:
/// ```swift
/// struct Relations { let cover = ToOneRelation<Cover>("cover") }
/// let cover: ManagedObject<Cover>? = book.cover
/// ```
public struct ToOneRelation<Destination: ManagedObjectConvertible>: Sendable {
    /// The relationship's name in the model.
    public let name: String

    /// A relation to the model's relationship `name`.
    public init(_ name: String) { self.name = name }
}
