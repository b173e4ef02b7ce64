/// The built-in functions of NSExpression (§2.6), plus unary minus.
///
/// The raw value is the selector as printed. Arithmetic and bitwise operators are functions too
/// (`a + b` is ``add``), as in NSExpression.
public enum BuiltinFunction: String, Sendable, Hashable, CaseIterable {
    // Aggregates over a collection.
    case sum = "sum:", count = "count:", min = "min:", max = "max:", average = "average:"
    case median = "median:", mode = "mode:", stddev = "stddev:"
    case add = "add:to:", subtract = "from:subtract:", multiply = "multiply:by:", divide = "divide:by:"
    case modulus = "modulus:by:"
    case sqrt = "sqrt:", log = "log:", ln = "ln:", exp = "exp:", raise = "raise:toPower:"
    case ceiling = "ceiling:", floor = "floor:", trunc = "trunc:", abs = "abs:"
    case uppercase = "uppercase:", lowercase = "lowercase:"
    case now = "now", random = "random", randomInRange = "random:", noindex = "noindex:"
    case bitwiseAnd = "bitwiseAnd:with:", bitwiseOr = "bitwiseOr:with:", bitwiseXor = "bitwiseXor:with:"
    case leftShift = "leftshift:by:", rightShift = "rightshift:by:", onesComplement = "onesComplement:"
    case castObject = "castObject:toType:"
    case distanceToLocation = "distanceToLocation:fromLocation:"
    /// Unary minus (`-x`); it has no selector form in format strings.
    case negate = "-"

    /// The selector name as printed (`modulus:by:`).
    public var selector: String { rawValue }

    /// The number of arguments.
    public var arity: Int {
        switch self {
        case .now, .random: return 0
        case .add, .subtract, .multiply, .divide, .modulus, .raise, .bitwiseAnd, .bitwiseOr, .bitwiseXor,
            .leftShift, .rightShift, .castObject, .distanceToLocation:
            return 2
        default: return 1
        }
    }

    /// The infix operator that prints the function, if any (`+` for `add:to:`).
    public var infixOperator: String? {
        switch self {
        case .add: return "+"
        case .subtract: return "-"
        case .multiply: return "*"
        case .divide: return "/"
        case .raise: return "**"
        case .bitwiseAnd: return "&"
        case .bitwiseOr: return "|"
        case .bitwiseXor: return "^"
        case .leftShift: return "<<"
        case .rightShift: return ">>"
        default: return nil
        }
    }

    /// Resolves a name as written in a format string: `sum`, `sum:`, `modulus:by:`, `randomn:`.
    /// A bare name also matches a multi-part selector whose first part it is (`modulus` → `modulus:by:`)
    /// when the argument count fits.
    static func resolve(name: String, argumentCount: Int) -> BuiltinFunction? {
        if name == "randomn:" || (name == "randomn" && argumentCount == 1) { return .randomInRange }
        if name == "-" { return nil }
        if let exact = BuiltinFunction(rawValue: name), exact != .negate { return exact }
        if !name.contains(":") {
            if argumentCount == 0, let plain = BuiltinFunction(rawValue: name) { return plain }
            for function in allCases where function != .negate && function.arity == argumentCount {
                if function.rawValue.hasPrefix(name + ":") { return function }
            }
        }
        return nil
    }
}
