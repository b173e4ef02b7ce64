import CDQIPredicate

extension ScalarAttribute where Value == String {
    /// `BEGINSWITH`, with `[cdn]` options.
    public func cdqiBeginsWith(_ value: String, options: ComparisonOptions = []) -> PredicateNode {
        .comparison(cdqiExpression, .beginsWith, .constant(.string(value)), options: options)
    }

    /// `ENDSWITH`, with `[cdn]` options.
    public func cdqiEndsWith(_ value: String, options: ComparisonOptions = []) -> PredicateNode {
        .comparison(cdqiExpression, .endsWith, .constant(.string(value)), options: options)
    }

    /// `CONTAINS` (substring), with `[cdn]` options.
    public func cdqiContains(_ value: String, options: ComparisonOptions = []) -> PredicateNode {
        .comparison(cdqiExpression, .contains, .constant(.string(value)), options: options)
    }

    /// `LIKE` (`*` and `?` wildcards), with `[cdn]` options.
    public func cdqiLike(_ pattern: String, options: ComparisonOptions = []) -> PredicateNode {
        .comparison(cdqiExpression, .like, .constant(.string(pattern)), options: options)
    }

    /// `MATCHES` (ICU regular expression over the whole string), with `[cdn]` options.
    public func cdqiMatches(_ pattern: String, options: ComparisonOptions = []) -> PredicateNode {
        .comparison(cdqiExpression, .matches, .constant(.string(pattern)), options: options)
    }
}

/// `attribute ~= pattern`: `attribute MATCHES pattern`.
public func ~= (lhs: ScalarAttribute<String>, rhs: String) -> PredicateNode {
    lhs.cdqiMatches(rhs)
}
