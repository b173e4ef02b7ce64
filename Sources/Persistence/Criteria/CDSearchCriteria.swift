import CDQIPredicate
import CDQIStore

/// The holder of a query's filters, orders and projections. A ``DAO`` registers itself as the
/// criteria's interceptor when it runs them and supplies the base request for its entity.
///
/// ```swift
/// let criteria = CDSearchCriteria.criteria()
/// criteria.addFilter(CDFilter.like("stringProperty1", value: "abc*", caseSensitive: false))
/// criteria.addFilter(CDFilter.isNotNull("timeStamp"))
/// ```
open class CDSearchCriteria: CDCriteria {
    /// The entity the criteria are meant for (informative: the DAO running them decides the entity).
    public var entityName: String?
    /// What supplies the base request; held weakly, as upstream's `assign` property.
    public private(set) weak var interceptor: (any CDQueryTransformInterceptor)?
    public private(set) var orders: [CDOrder]?
    public private(set) var filters: [CDFilter]?
    public private(set) var projections: [CDProjection]?
    public var readPropertyValues = false
    public var returnObjectsAsFaults = true

    /// Empty criteria.
    public init() {}

    /// Empty criteria for `entityName`.
    public init(entityName: String?) {
        self.entityName = entityName
    }

    /// Empty criteria.
    open class func criteria() -> CDSearchCriteria {
        CDSearchCriteria()
    }

    /// Empty criteria for `entityName`.
    open class func criteria(withEntityName entityName: String?) -> CDSearchCriteria {
        CDSearchCriteria(entityName: entityName)
    }

    public func addOrder(_ order: CDOrder) { orders = (orders ?? []) + [order] }
    public func addFilter(_ filter: CDFilter) { filters = (filters ?? []) + [filter] }
    public func addProjection(_ projection: CDProjection) { projections = (projections ?? []) + [projection] }
    public func removeOrder(_ order: CDOrder) { orders?.removeAll { $0 === order } }
    public func removeFilter(_ filter: CDFilter) { filters?.removeAll { $0 === filter } }

    /// Whether there is an order.
    public func hasOrders() -> Bool { !(orders ?? []).isEmpty }
    /// Whether there is a filter.
    public func hasFilters() -> Bool { !(filters ?? []).isEmpty }
    /// Whether there is a projection.
    public func hasProjections() -> Bool { !(projections ?? []).isEmpty }

    /// Makes `interceptor` the supplier of the base request.
    public func registerInterceptor(_ interceptor: (any CDQueryTransformInterceptor)?) {
        self.interceptor = interceptor
    }

    /// The request: the interceptor's base request with the orders, the AND of the filters and the
    /// projections (a dictionary fetch). `nil` without an interceptor, as upstream; a filter without a
    /// predicate is reported to ``errorHandler`` and also gives `nil`.
    open func createFetchRequest() -> FetchRequest? {
        guard interceptor != nil else { return nil }
        do {
            return try tryCreateFetchRequest()
        } catch {
            report(error, to: nil)
            return nil
        }
    }

    /// ``createFetchRequest()``, throwing ``PersistenceError/noInterceptor`` or the filter's error.
    open func tryCreateFetchRequest() throws(PersistenceError) -> FetchRequest {
        guard let interceptor else { throw .noInterceptor }
        interceptor.beforeCreateFetchRequest(self)
        guard var request = interceptor.createFetchRequest() else { throw .noInterceptor }
        request.returnsObjectsAsFaults = returnObjectsAsFaults
        if hasOrders() {
            request.sortDescriptors = (orders ?? []).compactMap { $0.createSortDescriptor() }
        }
        if let filters, !filters.isEmpty {
            var predicates: [PredicateNode] = []
            for filter in filters {
                predicates.append(try filter.tryCreatePredicate())
            }
            request.predicate = predicates.count == 1 ? predicates[0] : .and(predicates)
        }
        if let projections, !projections.isEmpty {
            request.propertiesToFetch = projections.compactMap { $0.createPropertyDescription([:]) }
        }
        return request
    }
}
