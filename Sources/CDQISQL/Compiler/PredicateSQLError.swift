/// Why a predicate cannot be compiled to SQL for a fetch. The message names the key path or the
/// construct, and the entity.
public enum PredicateSQLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A key that the entity (or the entity reached so far along the path) does not have.
    case unknownKey(key: String, entity: String, keyPath: String)
    /// A to-many key path used where a single value is needed, outside ANY/ALL/NONE, the membership
    /// forms and the collection operators.
    case toManyKeyNotAllowed(keyPath: String)
    /// A key path with more than one to-many step.
    case multipleToManySteps(keyPath: String)
    /// ANY/ALL/NONE on a literal collection (`ANY {1, 2} == 1`), which only the in-memory evaluator
    /// iterates. (On a to-many key path they quantify; on a single value they are the plain comparison.)
    case modifierNeedsToMany(keyPath: String)
    /// A transient property: it has no column.
    case transientProperty(key: String, entity: String)
    /// A construct the SQL compiler does not accept (the closed list of predicate-language.md §4.1).
    case unsupported(String)
    /// A variable with no value.
    case unboundVariable(String)
    /// A value or operand of the wrong shape (BETWEEN bounds, arithmetic on strings, …).
    case typeMismatch(expression: String, reason: String)
    /// A construct one dialect cannot run with the evaluator's exact semantics (a MATCHES pattern
    /// PostgreSQL's regular expressions would read differently, a localized sort): refused rather than
    /// answered differently. `offset` is the position in the pattern (in Unicode scalars) when there is one.
    case notInDialect(dialect: SQLDialect, construct: String, offset: Int?, reason: String)

    /// A sentence describing the problem.
    public var description: String {
        switch self {
        case .unknownKey(let key, let entity, let keyPath):
            return "unknown key '\(key)' on entity '\(entity)' in '\(keyPath)'"
        case .toManyKeyNotAllowed(let keyPath):
            return "to-many key not allowed here: '\(keyPath)' (use ANY, ALL or NONE, or a collection operator)"
        case .multipleToManySteps(let keyPath):
            return "'\(keyPath)' goes through more than one to-many relationship"
        case .modifierNeedsToMany(let keyPath):
            return "ANY/ALL/NONE in a fetch need a to-many key path or a single value, and '\(keyPath)' is a literal collection"
        case .transientProperty(let key, let entity):
            return "'\(entity).\(key)' is transient: it is not stored, so a fetch cannot use it"
        case .unsupported(let what):
            return "not supported in a fetch: \(what)"
        case .unboundVariable(let name):
            return "the variable $\(name) has no value"
        case .typeMismatch(let expression, let reason):
            return "'\(expression)': \(reason)"
        case .notInDialect(let dialect, let construct, let offset, let reason):
            let position = offset.map { " at offset \($0)" } ?? ""
            return "not supported in a \(dialect) fetch: \(construct)\(position) (\(reason))"
        }
    }
}
