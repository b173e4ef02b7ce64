/// A plain Swift type mapped to an entity of the model: its entity name, which of its properties are
/// attributes (and under which names), and its relations.
///
/// Decoding starts from ``init()`` and then sets every attribute, so every mapped property needs a
/// default value:
/// ```swift
/// struct Book {
///     var id: UUID?
///     var name: String = ""
/// }
///
/// extension Book: ManagedObjectConvertible {
///     static let entityName = "Book"
///     static let attributes: Set<Attribute<Book>> = [
///         .init(\.id, "id"),
///         .init(\.name, "name"),
///     ]
///     struct Relations {
///         let authors = ToManyRelation<Author>("authors")
///     }
///     static let relations = Relations()
/// }
/// ```
/// A type without relations declares `static let relations: Void = ()`.
public protocol ManagedObjectConvertible {
    /// The type that lists the relations (a struct of ``ToOneRelation``, ``ToManyRelation`` and
    /// ``ToManyOrderedRelation`` properties), or `Void` when there are none.
    associatedtype Relations

    /// The name of the entity in the model.
    static var entityName: String { get }
    /// The mapped attributes: each ties a key path of the type to an attribute name of the entity.
    static var attributes: Set<Attribute<Self>> { get }
    /// The relations, reached by key path through ``ManagedObject``'s dynamic members.
    static var relations: Relations { get }

    /// A value with every property at its default; decoding sets the attributes on it.
    init()
}

extension ManagedObjectConvertible {
    /// The attribute mapped to `keyPath`, or `nil` when `attributes` does not list it.
    static func attribute(for keyPath: AnyKeyPath) -> Attribute<Self>? {
        attributes.first { $0.keyPath == keyPath }
    }

    /// The attribute name mapped to `keyPath`.
    /// - Throws: ``RequestError/unmappedKeyPath(entity:keyPath:)`` when `attributes` does not list it.
    static func attributeName(for keyPath: AnyKeyPath) throws(RequestError) -> String {
        guard let attribute = attribute(for: keyPath) else {
            throw .unmappedKeyPath(entity: entityName, keyPath: String(describing: keyPath))
        }
        return attribute.name
    }
}
