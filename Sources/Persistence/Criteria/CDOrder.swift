import CDQIStore

/// An order of a query's results: one property, ascending or descending.
open class CDOrder: CDCriteriaElement {
    /// The direction.
    public let orderType: CDOrderType

    /// An ascending order of no property.
    public override init() {
        orderType = kCDOrderAscending
        super.init()
    }

    /// An order of `property` in the direction `orderType`.
    public init(propertyAndType property: String?, orderType: CDOrderType) {
        self.orderType = orderType
        super.init(property: property)
    }

    /// `property` ascending.
    open class func ascendingOrder(_ property: String?) -> CDOrder {
        CDOrder(propertyAndType: property, orderType: kCDOrderAscending)
    }

    /// `property` descending.
    open class func descendingOrder(_ property: String?) -> CDOrder {
        CDOrder(propertyAndType: property, orderType: kCDOrderDescending)
    }

    /// `property` in the direction `orderType`.
    open class func order(_ orderType: CDOrderType, property: String?) -> CDOrder {
        CDOrder(propertyAndType: property, orderType: orderType)
    }

    /// The sort descriptor of the order; `nil` for an order of no property.
    open func createSortDescriptor() -> FetchSortDescriptor? {
        guard let property else { return nil }
        return FetchSortDescriptor(keyPath: property, ascending: orderType.isAscending)
    }
}
