import CDQIPredicate

/// A Swift range used as the value of a dictionary condition: the attribute must lie in it.
///
/// - `a...b` (any `Comparable` bound) is `key BETWEEN {a, b}`.
/// - `a..<b` with integer bounds is `key BETWEEN {a, b - 1}` (an empty range matches nothing).
/// - `a..<b` with other bounds (`Double`, `Decimal`, `Date`, `String`) is `key >= a AND key < b`: no
///   `BETWEEN` excludes its upper bound.
/// - `a...`, `...b`, `..<b` are `key >= a`, `key <= b`, `key < b`.
///
/// Ranges make a query too complex for ``Query/firstOrInsert()``.
protocol RangeCondition {
    /// The condition on `key`.
    func predicate(forKey key: String) throws(PredicateParseError) -> PredicateNode
}

extension ClosedRange: RangeCondition {
    func predicate(forKey key: String) throws(PredicateParseError) -> PredicateNode {
        try PredicateNode(format: "%K BETWEEN %@", argumentArray: [key, [lowerBound, upperBound] as [Any]])
    }
}

extension Range: RangeCondition {
    func predicate(forKey key: String) throws(PredicateParseError) -> PredicateNode {
        if let upper = upperBound as? any FixedWidthInteger {
            guard let last = predecessor(of: upper) else { return .falsePredicate }
            return try PredicateNode(format: "%K BETWEEN %@", argumentArray: [key, [lowerBound, last] as [Any]])
        }
        return try PredicateNode(format: "%K >= %@ AND %K < %@", argumentArray: [key, lowerBound, key, upperBound])
    }
}

extension PartialRangeFrom: RangeCondition {
    func predicate(forKey key: String) throws(PredicateParseError) -> PredicateNode {
        try PredicateNode(format: "%K >= %@", argumentArray: [key, lowerBound])
    }
}

extension PartialRangeThrough: RangeCondition {
    func predicate(forKey key: String) throws(PredicateParseError) -> PredicateNode {
        try PredicateNode(format: "%K <= %@", argumentArray: [key, upperBound])
    }
}

extension PartialRangeUpTo: RangeCondition {
    func predicate(forKey key: String) throws(PredicateParseError) -> PredicateNode {
        try PredicateNode(format: "%K < %@", argumentArray: [key, upperBound])
    }
}

/// `value - 1`, or `nil` at the type's minimum (the range `min..<min` is empty).
private func predecessor<I: FixedWidthInteger>(of value: I) -> Any? {
    let (result, overflow) = value.subtractingReportingOverflow(1)
    return overflow ? nil : result
}
