/// `property == value`.
open class CDEqualFilter: CDOperatorFilter {
    /// A filter `property == value`.
    public init(propertyAndValue property: String?, value: Any?) {
        super.init(propertyAndValue: property, value: value, operatorType: CDFilterOperatorEqual)
    }
}
