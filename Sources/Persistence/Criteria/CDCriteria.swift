/// What a query is made of: filters, orders and projections, and two fetch flags.
public protocol CDCriteria: AnyObject {
    /// The orders, in the order added; `nil` until the first ``addOrder(_:)``.
    var orders: [CDOrder]? { get }
    /// The filters, ANDed; `nil` until the first ``addFilter(_:)``.
    var filters: [CDFilter]? { get }
    /// The projections; `nil` until the first ``addProjection(_:)``.
    var projections: [CDProjection]? { get }
    /// Upstream's `includesPropertyValues` (default `false`). This store always reads the values of the
    /// objects it fetches, so the flag is kept for source compatibility and changes no result.
    var readPropertyValues: Bool { get set }
    /// Whether fetched objects may be faults (default `true`); `false` is upstream's "eager fetch".
    var returnObjectsAsFaults: Bool { get set }
    /// Adds an order.
    func addOrder(_ order: CDOrder)
    /// Adds a filter.
    func addFilter(_ filter: CDFilter)
    /// Adds a projection.
    func addProjection(_ projection: CDProjection)
    /// Removes an order (the same instance).
    func removeOrder(_ order: CDOrder)
    /// Removes a filter (the same instance).
    func removeFilter(_ filter: CDFilter)
}
