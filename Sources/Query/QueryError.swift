import CDQIPredicate

/// Why a query could not run. Builder calls never fail: a problem found while building is kept in the
/// query, and the call that executes it (`all()`, `first()`, `count()`, `fetchRequest`,
/// `firstOrInsert()`, …) throws it.
public enum QueryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// ``Query/firstOrInsert()`` cannot tell what values a new object would need: the query has an
    /// `or`, an inequality, a range or a format-string condition.
    case tooComplex
    /// An `or` came before any `where`: there is nothing to combine it with (upstream traps).
    case orWithoutWhere
    /// A format string (or a value of a dictionary condition) could not be parsed; the error gives the
    /// offset of the problem.
    indirect case invalidPredicate(PredicateParseError)
    /// No entity of the model stands for the class: it is not registered for one, the model names no
    /// entity with this class, and no entity has the class's name.
    case entityNotFound(className: String)
    /// The entity's objects are instances of another class, registered for it.
    case classMismatch(entity: String, className: String, registeredClassName: String)
    /// A dictionary condition, a sort key or `id` names a property the entity does not have.
    case unknownKey(String, entity: String)
    /// `query()` was called on an object that is in no context.
    case noContext(entity: String)

    /// A sentence describing the problem.
    public var description: String {
        switch self {
        case .tooComplex:
            return "firstOrInsert() cannot work out the values of a new object: the query has an 'or', "
                + "an inequality, a range or a format-string condition"
        case .orWithoutWhere:
            return "'or' needs a 'where' condition before it to combine with"
        case .invalidPredicate(let error):
            return "invalid predicate at offset \(error.utf8Offset): \(error.description)"
        case .entityNotFound(let className):
            return "no entity of the model stands for class '\(className)' "
                + "(register it, name it as the entity's class in the model, or name the entity like the class)"
        case .classMismatch(let entity, let className, let registeredClassName):
            return "objects of entity '\(entity)' are instances of '\(registeredClassName)', not '\(className)'"
        case .unknownKey(let key, let entity):
            return "entity '\(entity)' has no property '\(key)'"
        case .noContext(let entity):
            return "the '\(entity)' object is in no context, so it cannot start a query"
        }
    }
}
