/// Why a predicate or expression could not be evaluated in memory. Each case names the key path or
/// expression at fault.
public enum PredicateEvaluationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The object has no such key.
    case unknownKey(key: String, keyPath: String)
    /// A to-many key path is used where only one value fits (§3.7).
    case toManyKeyNotAllowed(keyPath: String)
    /// More than one to-many step in one key path.
    case multipleToManySteps(keyPath: String)
    /// An operand has the wrong kind (`@sum` of strings, arithmetic on a date, …).
    case typeMismatch(expression: String, reason: String)
    /// A `$variable` with no value.
    case unboundVariable(String)
    /// A construct the in-memory evaluator does not support (custom selectors, UTI operators, FUNCTION).
    case unsupported(String)
    /// `BETWEEN` whose right side is not a two-element array.
    case invalidBetweenBounds(expression: String)
    /// An index outside the collection.
    case indexOutOfRange(expression: String)
    /// An integer `@sum`/`sum:` that overflows 64 bits.
    case integerOverflow(expression: String)
    /// A dictionary value of a type the evaluator cannot use.
    case unsupportedValue(key: String, typeName: String)

    public var description: String {
        switch self {
        case .unknownKey(let key, let keyPath):
            return key == keyPath ? "unknown key '\(key)'" : "unknown key '\(key)' in key path '\(keyPath)'"
        case .toManyKeyNotAllowed(let keyPath):
            return "to-many key not allowed here: '\(keyPath)' (use ANY, ALL or NONE)"
        case .multipleToManySteps(let keyPath):
            return "key path '\(keyPath)' has more than one to-many step"
        case .typeMismatch(let expression, let reason):
            return "cannot evaluate '\(expression)': \(reason)"
        case .unboundVariable(let name):
            return "cannot evaluate unbound variable $\(name)"
        case .unsupported(let what):
            return "cannot evaluate \(what) in memory"
        case .invalidBetweenBounds(let expression):
            return "BETWEEN needs a two-element array on its right side: '\(expression)'"
        case .indexOutOfRange(let expression):
            return "index out of range in '\(expression)'"
        case .integerOverflow(let expression):
            return "integer overflow in '\(expression)'"
        case .unsupportedValue(let key, let typeName):
            return "the value for key '\(key)' has an unsupported type \(typeName)"
        }
    }
}
