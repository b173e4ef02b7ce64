/// Every filter factory: ``CDFilter``'s, plus `contains`, `any`, `all` and `not`.
open class CDFilterFactory {
    /// `property LIKE "value*"`, case sensitive.
    public class func like(_ property: String?, value: String?) -> CDFilter {
        CDFilter.like(property, value: value)
    }

    /// `property LIKE "value*"`, or `LIKE[c]` when `caseSensitive` is `false`.
    public class func like(_ property: String?, value: String?, caseSensitive: Bool) -> CDFilter {
        CDFilter.like(property, value: value, caseSensitive: caseSensitive)
    }

    /// `property == value`.
    public class func equals(_ property: String?, value: Any?) -> CDFilter {
        CDFilter.equals(property, value: value)
    }

    /// `property != value`.
    public class func notEquals(_ property: String?, value: Any?) -> CDFilter {
        CDFilter.notEquals(property, value: value)
    }

    /// `property < value`.
    public class func less(_ property: String?, value: Any?) -> CDFilter {
        CDFilter.less(property, value: value)
    }

    /// `property > value` (upstream's spelling).
    public class func greather(_ property: String?, value: Any?) -> CDFilter {
        CDFilter.greather(property, value: value)
    }

    /// `property > value`.
    public class func greater(_ property: String?, value: Any?) -> CDFilter {
        CDFilter.greather(property, value: value)
    }

    /// An empty OR.
    public class func disjunction() -> CDFilterDisjunction {
        CDFilter.disjunction()
    }

    /// An empty AND (upstream's spelling).
    public class func conjuction() -> CDFilterConjunction {
        CDFilter.conjuction()
    }

    /// An empty AND.
    public class func conjunction() -> CDFilterConjunction {
        CDFilter.conjuction()
    }

    /// `property == nil`.
    public class func isNull(_ property: String?) -> CDFilter {
        CDFilter.isNull(property)
    }

    /// `property != nil`.
    public class func isNotNull(_ property: String?) -> CDFilter {
        CDFilter.isNotNull(property)
    }

    /// `property IN {values…}`.
    public class func inValues(_ property: String?, values: [Any]?) -> CDFilter {
        CDFilter.inValues(property, values: values)
    }

    /// `property CONTAINS value`, case sensitive: a plain substring (or membership) test.
    public class func contains(_ property: String?, value: Any?) -> CDFilter {
        CDContainsFilter(property: property, value: value)
    }

    /// `property CONTAINS value`, or `CONTAINS[c]` when `caseSensitive` is `false`.
    public class func contains(_ property: String?, value: Any?, caseSensitive: Bool) -> CDFilter {
        CDContainsFilter(property: property, value: value, caseSensitive: caseSensitive)
    }

    /// `ANY filter`, for a filter on a to-many key path.
    public class func any(_ filter: CDFilter) -> CDFilter {
        CDAnyFilter(filter: filter)
    }

    /// `ALL filter`, for a filter on a to-many key path (true over an empty to-many).
    public class func all(_ filter: CDFilter) -> CDFilter {
        CDAllFilter(filter: filter)
    }

    /// `NOT filter`.
    public class func not(_ filter: CDFilter) -> CDFilter {
        CDNotFilter(filter: filter)
    }
}
