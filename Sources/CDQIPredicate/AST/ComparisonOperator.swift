/// The operator of a comparison predicate (§2.3 of the predicate-language reference).
public enum ComparisonOperator: Sendable, Hashable {
    /// `<`, `<=` (`=<`), `>`, `>=` (`=>`), `==` (`=`), `!=` (`<>`).
    case lessThan, lessThanOrEqual, greaterThan, greaterThanOrEqual, equalTo, notEqualTo
    /// `MATCHES` (whole-string ICU regex), `LIKE` (`*`/`?` wildcards), `BEGINSWITH`, `ENDSWITH`.
    case matches, like, beginsWith, endsWith
    /// `IN` and `CONTAINS` (membership or substring), `BETWEEN` (inclusive bounds).
    case `in`, contains, between
    /// `UTI-CONFORMS-TO` and `UTI-EQUALS`: parsed and printed, rejected by both back ends.
    case utiConformsTo, utiEquals
    /// An Objective-C selector comparison (`SELF isKindOfClass: %@`). It parses and prints, but
    /// neither back end can evaluate it.
    case customSelector(String)

    /// The canonical text printed for the operator.
    public var symbol: String {
        switch self {
        case .lessThan: return "<"
        case .lessThanOrEqual: return "<="
        case .greaterThan: return ">"
        case .greaterThanOrEqual: return ">="
        case .equalTo: return "=="
        case .notEqualTo: return "!="
        case .matches: return "MATCHES"
        case .like: return "LIKE"
        case .beginsWith: return "BEGINSWITH"
        case .endsWith: return "ENDSWITH"
        case .in: return "IN"
        case .contains: return "CONTAINS"
        case .between: return "BETWEEN"
        case .utiConformsTo: return "UTI-CONFORMS-TO"
        case .utiEquals: return "UTI-EQUALS"
        case .customSelector(let selector): return selector
        }
    }

    /// Whether options (`[cdnl]`) may follow the operator.
    public var acceptsOptions: Bool {
        switch self {
        case .between, .utiConformsTo, .utiEquals, .customSelector: return false
        default: return true
        }
    }
}

/// The modifier of a comparison (§2.5). `SOME` is `any`; `NONE` is represented as `NOT (ANY …)`.
public enum ComparisonModifier: Sendable, Hashable {
    /// A plain comparison.
    case direct
    /// True when every element of the left-hand collection satisfies the comparison.
    case all
    /// True when some element of the left-hand collection satisfies the comparison.
    case any
}

/// The string options of a comparison (§2.4): `[c]`, `[d]`, `[n]`, `[l]`.
public struct ComparisonOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `[c]`: case- and width-insensitive.
    public static let caseInsensitive = ComparisonOptions(rawValue: 1)
    /// `[d]`: diacritic-insensitive.
    public static let diacriticInsensitive = ComparisonOptions(rawValue: 2)
    /// `[n]`: the strings are already normalized; disables `[c]` and `[d]`.
    public static let normalized = ComparisonOptions(rawValue: 4)
    /// `[l]`: locale-sensitive; accepted and ignored.
    public static let localeSensitive = ComparisonOptions(rawValue: 8)

    /// The printed form, letters in the order c, d, n, l (`[cd]`), or "" without options.
    public var formatSuffix: String {
        if isEmpty { return "" }
        var letters = "["
        if contains(.caseInsensitive) { letters += "c" }
        if contains(.diacriticInsensitive) { letters += "d" }
        if contains(.normalized) { letters += "n" }
        if contains(.localeSensitive) { letters += "l" }
        return letters + "]"
    }

    /// The folding the options call for: none with `[n]`, else `[c]` and `[d]`.
    public var effectiveFolding: ComparisonOptions {
        if contains(.normalized) { return [] }
        return intersection([.caseInsensitive, .diacriticInsensitive])
    }
}
