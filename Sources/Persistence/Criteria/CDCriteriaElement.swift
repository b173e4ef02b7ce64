/// What every criteria element has: the property it is about (Objective-C's `CDCriteriaElement`
/// protocol, imported by Swift as `CDCriteriaElementProtocol` because a class has the same name).
public protocol CDCriteriaElementProtocol: AnyObject {
    /// The property (attribute or key path) the element is about.
    var property: String? { get }
}

/// The base of filters, orders, projections and functions: an element about one property.
open class CDCriteriaElement: CDCriteriaElementProtocol {
    /// The property (attribute or key path) the element is about; `nil` for an element made with ``init()``.
    public let property: String?

    /// An element about no property.
    public init() {
        property = nil
    }

    /// An element about `property`.
    public init(property: String?) {
        self.property = property
    }
}
