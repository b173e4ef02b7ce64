import CDQIModel
import CDQIPredicate
import CDQIStore
import Persistence
import Testing

/// A test interceptor that supplies the base request for `Thing`.
private final class ThingInterceptor: CDQueryTransformInterceptor {
    var calls = 0
    func beforeCreateFetchRequest(_ criteria: any CDCriteria) { calls += 1 }
    func createFetchRequest() -> FetchRequest? { FetchRequest(entityName: "Thing") }
}

/// Orders, functions, projections and search criteria.
@Suite struct CriteriaTests {
    @Test func orders() {
        #expect(CDOrder.ascendingOrder("p").property == "p")
        #expect(CDOrder.ascendingOrder("p").orderType == kCDOrderAscending)
        #expect(CDOrder.descendingOrder("p").orderType == kCDOrderDescending)
        #expect(
            CDOrder.order(kCDOrderDescending, property: "prop").createSortDescriptor()
                == FetchSortDescriptor(keyPath: "prop", ascending: false))
        #expect(
            CDOrder(propertyAndType: "q", orderType: kCDOrderAscending).createSortDescriptor()
                == FetchSortDescriptor(keyPath: "q", ascending: true))
        #expect(CDOrder().property == nil)
        #expect(CDOrder().createSortDescriptor() == nil)
    }

    @Test func functions() {
        let max = CDFunction.max("name", resultType: NSStringAttributeType)
        #expect(max.name == "max:")
        #expect(max.property == "name")
        #expect(max.resultType == .string)
        #expect(max.createExpression().description == "max:(name)")
        #expect(CDFunction.min("a", resultType: NSInteger32AttributeType).name == "min:")
        #expect(CDFunction.sum("a", resultType: NSDoubleAttributeType).createExpression().description == "sum:(a)")
        let lower = CDFunction.lower("name", resultType: NSStringAttributeType)
        #expect(lower.name == "lower:")
        #expect(lower.createExpression().description == "lowercase:(name)")
        let count = CDFunction.count("childs")
        #expect(count.name == "count:")
        #expect(count.resultType == .integer32)
    }

    @Test func projections() {
        let function = CDProjection.createWithFunction(CDFunction.max("name", resultType: NSStringAttributeType))
        #expect(function.createPropertyDescription([:])?.name == "max:name")
        let property = CDProjection.createWithProperty("timeStamp")
        #expect(property.createPropertyDescription([:]) == .keyPath("timeStamp"))
        #expect(CDProjection(property: "x").property == "x")
        #expect(CDProjection().createPropertyDescription([:]) == nil)
    }

    @Test func emptyCriteria() {
        let criteria = CDSearchCriteria()
        #expect(criteria.filters == nil)
        #expect(criteria.orders == nil)
        #expect(criteria.projections == nil)
        #expect(criteria.readPropertyValues == false)
        #expect(criteria.returnObjectsAsFaults == true)
        #expect(!criteria.hasFilters() && !criteria.hasOrders() && !criteria.hasProjections())
        #expect(CDSearchCriteria.criteria(withEntityName: "TestEntity").entityName == "TestEntity")
        #expect(CDSearchCriteria.criteria().entityName == nil)
        // Without an interceptor there is no request, as upstream.
        #expect(criteria.createFetchRequest() == nil)
        #expect(throws: PersistenceError.self) { try criteria.tryCreateFetchRequest() }
    }

    @Test func addAndRemove() {
        let criteria = CDSearchCriteria(entityName: "Thing")
        let first = CDFilter.isNull("a")
        let second = CDFilter.isNull("b")
        criteria.addFilter(first)
        criteria.addFilter(second)
        criteria.removeFilter(first)
        #expect(criteria.filters?.count == 1)
        #expect(criteria.filters?.first === second)
        let order = CDOrder.ascendingOrder("a")
        criteria.addOrder(order)
        #expect(criteria.hasOrders())
        criteria.removeOrder(order)
        #expect(criteria.orders?.isEmpty == true)
        #expect(!criteria.hasOrders())
    }

    @Test func theInterceptorSuppliesTheRequest() throws {
        let interceptor = ThingInterceptor()
        let criteria = CDSearchCriteria.criteria()
        criteria.registerInterceptor(interceptor)
        criteria.addFilter(CDFilter.equals("a", value: 1))
        criteria.addFilter(CDFilter.like("b", value: "x"))
        criteria.addOrder(CDOrder.descendingOrder("a"))
        criteria.returnObjectsAsFaults = false
        let request = try #require(criteria.createFetchRequest())
        #expect(interceptor.calls == 1)
        #expect(request.entityName == "Thing")
        #expect(request.predicate?.predicateFormat == #"a == 1 AND b LIKE "x*""#)
        #expect(request.sortDescriptors == [FetchSortDescriptor(keyPath: "a", ascending: false)])
        #expect(request.returnsObjectsAsFaults == false)
        #expect(request.propertiesToFetch.isEmpty)

        // A property projection of an unknown name is kept by name; the fetch reports it.
        criteria.addProjection(CDProjection.createWithProperty("nope"))
        let projected = try #require(criteria.createFetchRequest())
        #expect(projected.propertiesToFetch == [.keyPath("nope")])
        withExtendedLifetime(interceptor) {}
    }
}
