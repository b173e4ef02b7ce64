import CDQIPredicate

/// A request that cannot run; thrown when it is executed (building a request never fails).
public enum RequestError: Error, CustomStringConvertible {
    /// A key path used in a predicate, a sort, a fetch or a decode that the type's `attributes` do not
    /// list (upstream Sworm's behaviour there is undefined).
    case unmappedKeyPath(entity: String, keyPath: String)
    /// A raw predicate string that does not parse, with the parser's error (its offset and message).
    case invalidPredicate(query: String, PredicateParseError)

    public var description: String {
        switch self {
        case .unmappedKeyPath(let entity, let keyPath):
            "the key path \(keyPath) is not among the attributes mapped for entity '\(entity)'"
        case .invalidPredicate(let query, let error):
            "invalid predicate '\(query)': \(error)"
        }
    }
}
