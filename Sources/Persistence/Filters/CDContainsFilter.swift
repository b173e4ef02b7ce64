/// `property CONTAINS value`, a plain substring test (`CONTAINS[c]` when not case sensitive).
///
/// Upstream appended a `*` to the value as for LIKE, so the filter only matched strings containing a
/// literal `*`: a bug, not a contract, and not kept.
open class CDContainsFilter: CDOperatorFilter {
    /// Whether the test is case sensitive (default `true`); `false` prints `CONTAINS[c]`.
    public var caseSensitive: Bool

    /// A filter `property CONTAINS value`.
    public init(property: String?, value: Any?, caseSensitive: Bool = true) {
        self.caseSensitive = caseSensitive
        super.init(propertyAndValue: property, value: value, operatorType: CDFilterOperatorContains)
    }

    /// `contains`, or `contains[c]` when not case sensitive.
    open override func operatorString() -> String {
        caseSensitive ? "contains" : "contains[c]"
    }
}
