import CDQIModel
import CDQIPredicate
import CDQIStore
import Foundation
import Persistence
import Testing

/// The DAO operations on upstream's two rows: "abc" (intProperty 10, no child) and "te2"
/// (intProperty 20, one child with intProperty 1).
@Suite struct DAOTests {
    private func dao() throws -> RuntimeDAO {
        RuntimeDAO(contextAndEntityName: try TestStore.filledContext(), entityName: "TestEntity")
    }

    @Test func initializers() throws {
        let context = try TestStore.filledContext()
        #expect(RuntimeDAO(context: context, entityName: "TestEntity").count() == 2)
        #expect(DAO(context: context).entityName == nil)
        #expect(RuntimeDAO(contextAndEntityName: context, entityName: "Child").count() == 1)
        final class TestEntity: ManagedObject {}
        let byClass = DAO(contextAndEntityName: context, entityClass: TestEntity.self)
        #expect(byClass.entityName == "TestEntity")
        #expect(byClass.managedObjectContext === context)
        #expect(byClass.newCriteriaInterceptor() === byClass)
    }

    @Test func findAllWithPagination() throws {
        let dao = try dao()
        #expect(TestStore.names(dao.findAll()) == ["abc", "te2"])
        #expect(dao.findAll(1, limit: -1).count == 1)
        #expect(dao.findAll(1, limit: 2).count == 1)
        #expect(dao.findAll(0, limit: 0).count == 2)
        #expect(dao.findAll(0, limit: 1).count == 1)
        #expect(dao.findAll(5, limit: 0).isEmpty)
        #expect(dao.findAll(nil).count == 2)
    }

    @Test func findAllWithCriteria() throws {
        let dao = try dao()
        let criteria = CDSearchCriteria.criteria()
        criteria.addOrder(CDOrder.descendingOrder("intProperty"))
        #expect((dao.findAll(criteria) as? [ManagedObject])?.compactMap { try? $0.value(forKey: "name") as? String } == ["te2", "abc"])
        #expect(
            (dao.findAll(criteria, fetchOffset: 1, limit: 5) as? [ManagedObject])?.compactMap {
                try? $0.value(forKey: "name") as? String
            } == ["abc"])
        let greater = CDSearchCriteria()
        greater.addFilter(CDFilter.greather("intProperty", value: 15))
        #expect(TestStore.names(dao.findAll(greater)) == ["te2"])
        let caseless = CDSearchCriteria()
        caseless.addFilter(CDFilter.like("name", value: "AB", caseSensitive: false))
        #expect(TestStore.names(dao.findAll(caseless)) == ["abc"])
        let contains = CDSearchCriteria()
        contains.addFilter(CDFilterFactory.contains("name", value: "e2"))
        #expect(TestStore.names(dao.findAll(contains)) == ["te2"])
        let inValues = CDSearchCriteria()
        inValues.addFilter(CDFilter.inValues("name", values: ["abc", "zzz"]))
        #expect(TestStore.names(dao.findAll(inValues)) == ["abc"])
    }

    @Test func anyAllAndNotOverTheChildren() throws {
        let dao = try dao()
        let any = CDSearchCriteria()
        any.addFilter(CDFilterFactory.any(CDFilter.equals("childs.intProperty", value: 1)))
        #expect(TestStore.names(dao.findAll(any)) == ["te2"])
        // ALL over an empty to-many is true: "abc" has no children; te2's only child has 1.
        let all = CDSearchCriteria()
        all.addFilter(CDFilterFactory.all(CDFilter.equals("childs.intProperty", value: 0)))
        #expect(TestStore.names(dao.findAll(all)) == ["abc"])
        let not = CDSearchCriteria()
        not.addFilter(CDFilterFactory.not(CDFilter.equals("name", value: "abc")))
        #expect(TestStore.names(dao.findAll(not)) == ["te2"])
    }

    @Test func idsAndCounts() throws {
        let dao = try dao()
        #expect(dao.findAllId().count == 2)
        let criteria = CDSearchCriteria()
        criteria.addFilter(CDFilter.equals("name", value: "abc"))
        #expect(dao.count(criteria) == 1)
        #expect(dao.count() == 2)
        let ids = dao.findAllId(criteria)
        #expect(ids.count == 1)
        let id = try #require(ids.first)
        let object = try #require(dao.findObjectById(id))
        #expect(try object.value(forKey: "name") as? String == "abc")
    }

    @Test func projectionsAreKeyedByPropertyAndFunction() throws {
        let dao = try dao()
        let max = CDSearchCriteria()
        max.addProjection(CDProjection.createWithFunction(CDFunction.max("intProperty", resultType: NSInteger32AttributeType)))
        let maxRows = dao.findAll(max) as? [[String: Any]]
        #expect(maxRows?.count == 1)
        #expect(maxRows?.first?["max:intProperty"] as? Int == 20)

        let sum = CDSearchCriteria()
        sum.addProjection(CDProjection.createWithFunction(CDFunction.sum("intProperty", resultType: NSInteger64AttributeType)))
        sum.addProjection(CDProjection.createWithFunction(CDFunction.min("intProperty", resultType: NSInteger32AttributeType)))
        let sumRow = (dao.findAll(sum) as? [[String: Any]])?.first
        #expect(sumRow?["sum:intProperty"] as? Int == 30)
        #expect(sumRow?["min:intProperty"] as? Int == 10)

        let counts = CDSearchCriteria()
        counts.addProjection(CDProjection.createWithProperty("name"))
        counts.addProjection(CDProjection.createWithFunction(CDFunction.count("childs")))
        counts.addOrder(CDOrder.ascendingOrder("name"))
        let countRows = try #require(dao.findAll(counts) as? [[String: Any]])
        #expect(countRows.count == 2)
        #expect(countRows.map { $0["name"] as? String } == ["abc", "te2"])
        #expect(countRows.map { $0["count:childs"] as? Int } == [0, 1])

        let lower = CDSearchCriteria()
        lower.addFilter(CDFilter.equals("name", value: "abc"))
        lower.addProjection(CDProjection.createWithFunction(CDFunction.lower("name", resultType: NSStringAttributeType)))
        #expect((dao.findAll(lower) as? [[String: Any]])?.first?["lower:name"] as? String == "abc")
        let upper = dao.insertNewObject()
        try upper?.setValue("ÄBC Straße", forKey: "name")
        // Dictionary fetches read the store, as Core Data's: save first.
        try dao.managedObjectContext.save()
        let lowerUpper = CDSearchCriteria()
        lowerUpper.addFilter(CDFilter.like("name", value: "Ä"))
        lowerUpper.addProjection(CDProjection.createWithFunction(CDFunction.lower("name", resultType: NSStringAttributeType)))
        #expect((dao.findAll(lowerUpper) as? [[String: Any]])?.first?["lower:name"] as? String == "äbc straße")
    }

    @Test func insertDeleteFindAndRefresh() throws {
        let dao = try dao()
        let object = try #require(dao.insertNewObject())
        try object.setValue("new", forKey: "name")
        #expect(dao.findObjectById(object.objectID) === object)
        #expect(dao.count() == 3)
        try dao.managedObjectContext.save()
        dao.deleteObject(object)
        #expect(dao.count() == 2)
        dao.managedObjectContext.rollback()
        #expect(dao.count() == 3)

        try object.setValue("changed", forKey: "name")
        dao.refreshObject(object, mergeChanges: false)
        #expect(try object.value(forKey: "name") as? String == "new")
    }

    @Test func errorsAreReportedAndResultsEmpty() throws {
        let dao = try dao()
        let collector = ErrorCollector()
        dao.errorHandler = collector.handler
        let criteria = CDSearchCriteria()
        criteria.addFilter(CDFilter.equals("nope", value: 1))
        #expect(dao.findAll(criteria).isEmpty)
        #expect(collector.errors.count == 1)
        #expect(dao.count(criteria) == 0)
        #expect(dao.findAllId(criteria).isEmpty)
        #expect(collector.errors.count == 3)
        #expect(throws: PersistenceError.self) { try dao.tryFindAll(criteria) }
        #expect(throws: PersistenceError.self) { try dao.tryCount(criteria) }

        let unknown = RuntimeDAO(contextAndEntityName: dao.managedObjectContext, entityName: "Nope")
        unknown.errorHandler = collector.handler
        #expect(unknown.insertNewObject() == nil)
        #expect(collector.errors.count == 4)
        #expect(throws: (any Error).self) { try unknown.tryInsertNewObject() }

        let noEntity = DAO(context: dao.managedObjectContext)
        noEntity.errorHandler = collector.handler
        #expect(noEntity.findAll().isEmpty)
        #expect(collector.errors.count == 5)
        #expect(collector.errors.last.map { "\($0)" }?.contains("interceptor") == true)
    }
}
