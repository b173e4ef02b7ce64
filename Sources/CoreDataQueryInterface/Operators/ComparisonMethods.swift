import CDQIPredicate

// The comparisons as methods, CDQI's `cdqi…` twins of the operators, with options (`[cd]` matter
// for strings: `$0.lastName.cdqiEqualTo("smith", options: .caseInsensitive)` is
// `lastName ==[c] "smith"`). Each takes a value or another expression of the same comparison type.

extension TypedExpression {
    /// `self == value`.
    public func cdqiEqualTo<R: TypedExpressionConvertible>(_ value: R, options: ComparisonOptions = []) -> PredicateNode
    where R.CDQIComparisonType == CDQIComparisonType {
        cdqiCompare(.equalTo, value.cdqiConstantExpression, options: options)
    }

    /// `self == other`.
    public func cdqiEqualTo<R: TypedExpression>(_ other: R, options: ComparisonOptions = []) -> PredicateNode
    where R.CDQIComparisonType == CDQIComparisonType {
        cdqiCompare(.equalTo, other.cdqiExpression, options: options)
    }

    /// `self != value`.
    public func cdqiNotEqualTo<R: TypedExpressionConvertible>(_ value: R, options: ComparisonOptions = []) -> PredicateNode
    where R.CDQIComparisonType == CDQIComparisonType {
        cdqiCompare(.notEqualTo, value.cdqiConstantExpression, options: options)
    }

    /// `self != other`.
    public func cdqiNotEqualTo<R: TypedExpression>(_ other: R, options: ComparisonOptions = []) -> PredicateNode
    where R.CDQIComparisonType == CDQIComparisonType {
        cdqiCompare(.notEqualTo, other.cdqiExpression, options: options)
    }

    /// `self < value`.
    public func cdqiLessThan<R: TypedExpressionConvertible>(_ value: R, options: ComparisonOptions = []) -> PredicateNode
    where R.CDQIComparisonType == CDQIComparisonType {
        cdqiCompare(.lessThan, value.cdqiConstantExpression, options: options)
    }

    /// `self < other`.
    public func cdqiLessThan<R: TypedExpression>(_ other: R, options: ComparisonOptions = []) -> PredicateNode
    where R.CDQIComparisonType == CDQIComparisonType {
        cdqiCompare(.lessThan, other.cdqiExpression, options: options)
    }

    /// `self <= value`.
    public func cdqiLessThanOrEqualTo<R: TypedExpressionConvertible>(_ value: R, options: ComparisonOptions = []) -> PredicateNode
    where R.CDQIComparisonType == CDQIComparisonType {
        cdqiCompare(.lessThanOrEqual, value.cdqiConstantExpression, options: options)
    }

    /// `self <= other`.
    public func cdqiLessThanOrEqualTo<R: TypedExpression>(_ other: R, options: ComparisonOptions = []) -> PredicateNode
    where R.CDQIComparisonType == CDQIComparisonType {
        cdqiCompare(.lessThanOrEqual, other.cdqiExpression, options: options)
    }

    /// `self > value`.
    public func cdqiGreaterThan<R: TypedExpressionConvertible>(_ value: R, options: ComparisonOptions = []) -> PredicateNode
    where R.CDQIComparisonType == CDQIComparisonType {
        cdqiCompare(.greaterThan, value.cdqiConstantExpression, options: options)
    }

    /// `self > other`.
    public func cdqiGreaterThan<R: TypedExpression>(_ other: R, options: ComparisonOptions = []) -> PredicateNode
    where R.CDQIComparisonType == CDQIComparisonType {
        cdqiCompare(.greaterThan, other.cdqiExpression, options: options)
    }

    /// `self >= value`.
    public func cdqiGreaterThanOrEqualTo<R: TypedExpressionConvertible>(_ value: R, options: ComparisonOptions = []) -> PredicateNode
    where R.CDQIComparisonType == CDQIComparisonType {
        cdqiCompare(.greaterThanOrEqual, value.cdqiConstantExpression, options: options)
    }

    /// `self >= other`.
    public func cdqiGreaterThanOrEqualTo<R: TypedExpression>(_ other: R, options: ComparisonOptions = []) -> PredicateNode
    where R.CDQIComparisonType == CDQIComparisonType {
        cdqiCompare(.greaterThanOrEqual, other.cdqiExpression, options: options)
    }

    /// `self BETWEEN {low, high}`: both bounds included.
    public func cdqiBetween<R: TypedExpressionConvertible>(_ low: R, and high: R) -> PredicateNode
    where R.CDQIComparisonType == CDQIComparisonType {
        cdqiCompare(.between, [low, high].cdqiCollectionExpression)
    }

    /// `self BETWEEN {range.lowerBound, range.upperBound}`.
    public func cdqiBetween<R: TypedExpressionConvertible & Comparable>(_ range: ClosedRange<R>) -> PredicateNode
    where R.CDQIComparisonType == CDQIComparisonType {
        cdqiBetween(range.lowerBound, and: range.upperBound)
    }

    /// `self IN {values…}`, with options (`[c]` for strings).
    public func cdqiAmong<R: TypedExpressionConvertible>(_ values: [R], options: ComparisonOptions = []) -> PredicateNode
    where R.CDQIComparisonType == CDQIComparisonType {
        cdqiCompare(.in, values.cdqiCollectionExpression, options: options)
    }
}
