/// `property LIKE "value*"`: a prefix match, since a `*` is appended to the value unless it already
/// ends with one (as upstream, and harmless for values such as `"abc*"`). `LIKE[c]` when not case sensitive.
open class CDLikeFilter: CDOperatorFilter {
    /// Whether the match is case sensitive (default `true`); `false` prints `LIKE[c]`.
    public var caseSensitive: Bool

    /// A filter `property LIKE "value*"`.
    public init(property: String?, value: String?, caseSensitive: Bool = true) {
        self.caseSensitive = caseSensitive
        let text = value ?? ""
        let pattern = text.hasSuffix("*") ? text : text + "*"
        super.init(propertyAndValue: property, value: pattern, operatorType: CDFilterOperatorLike)
    }

    /// `like`, or `like[c]` when not case sensitive.
    open override func operatorString() -> String {
        caseSensitive ? "like" : "like[c]"
    }
}
