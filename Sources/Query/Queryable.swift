/// A managed object class whose queries may name attributes with a type the compiler checks, instead
/// of strings.
///
/// `Attribute` is typically an enum whose case names are the entity's attribute names (`cdqi
/// --lightyear` writes it for every entity). It enables the dictionary forms of ``Query``'s `where` and
/// `or`, `order(by:)` with an attribute, and ``Query/firstOrInsert()``:
///
/// ```swift
/// extension Entity: Queryable {
///     enum Attribute {
///         case quantity, date
///     }
/// }
///
/// try Entity.query(in: context)
///     .where([.quantity: 1])
///     .order(by: .date)
///     .all()
/// ```
///
/// An attribute's key is its description (`"\(attribute)"`), which for an enum case is the case's name.
public protocol Queryable {
    /// The attributes a query may name: `"\(attribute)"` is the attribute's name in the model.
    associatedtype Attribute: Hashable
}
