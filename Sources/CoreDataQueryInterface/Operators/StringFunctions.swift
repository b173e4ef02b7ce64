import CDQIPredicate

// The string operators, as methods on any string-valued expression (`$0.lastName`,
// `$0.languages.name` under `any(...)`) and as free functions. Options: `.caseInsensitive` (`[c]`),
// `.diacriticInsensitive` (`[d]`), `.normalized` (`[n]`).

extension TypedExpression where CDQIComparisonType == String {
    /// `BEGINSWITH`, with `[cdn]` options.
    public func cdqiBeginsWith(_ value: String, options: ComparisonOptions = []) -> PredicateNode {
        cdqiCompare(.beginsWith, .constant(.string(value)), options: options)
    }

    /// `ENDSWITH`, with `[cdn]` options.
    public func cdqiEndsWith(_ value: String, options: ComparisonOptions = []) -> PredicateNode {
        cdqiCompare(.endsWith, .constant(.string(value)), options: options)
    }

    /// `CONTAINS` (substring), with `[cdn]` options.
    public func cdqiContains(_ value: String, options: ComparisonOptions = []) -> PredicateNode {
        cdqiCompare(.contains, .constant(.string(value)), options: options)
    }

    /// `LIKE` (`*` matches any run of characters, `?` one character), with `[cdn]` options.
    public func cdqiLike(_ pattern: String, options: ComparisonOptions = []) -> PredicateNode {
        cdqiCompare(.like, .constant(.string(pattern)), options: options)
    }

    /// `MATCHES` (an ICU regular expression over the whole string), with `[cdn]` options.
    public func cdqiMatches(_ pattern: String, options: ComparisonOptions = []) -> PredicateNode {
        cdqiCompare(.matches, .constant(.string(pattern)), options: options)
    }
}

/// `expression ~= pattern`: `expression MATCHES pattern`.
public func ~= <L: TypedExpression>(lhs: L, rhs: String) -> PredicateNode where L.CDQIComparisonType == String {
    lhs.cdqiMatches(rhs)
}

/// `expression BEGINSWITH value`, with `[cdn]` options.
public func beginsWith<L: TypedExpression>(_ lhs: L, _ value: String, options: ComparisonOptions = []) -> PredicateNode
where L.CDQIComparisonType == String {
    lhs.cdqiBeginsWith(value, options: options)
}

/// `expression ENDSWITH value`, with `[cdn]` options.
public func endsWith<L: TypedExpression>(_ lhs: L, _ value: String, options: ComparisonOptions = []) -> PredicateNode
where L.CDQIComparisonType == String {
    lhs.cdqiEndsWith(value, options: options)
}

/// `expression CONTAINS value`, with `[cdn]` options.
public func contains<L: TypedExpression>(_ lhs: L, _ value: String, options: ComparisonOptions = []) -> PredicateNode
where L.CDQIComparisonType == String {
    lhs.cdqiContains(value, options: options)
}

/// `expression LIKE pattern`, with `[cdn]` options.
public func like<L: TypedExpression>(_ lhs: L, _ pattern: String, options: ComparisonOptions = []) -> PredicateNode
where L.CDQIComparisonType == String {
    lhs.cdqiLike(pattern, options: options)
}

/// `expression MATCHES pattern`, with `[cdn]` options.
public func matches<L: TypedExpression>(_ lhs: L, _ pattern: String, options: ComparisonOptions = []) -> PredicateNode
where L.CDQIComparisonType == String {
    lhs.cdqiMatches(pattern, options: options)
}
