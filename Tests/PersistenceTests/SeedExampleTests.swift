import CDQIModel
import CDQIStore
import Foundation
import Persistence
import Testing

/// The seed text's examples (Persistence's introduction), in Swift with only the type substitutions
/// (and, on Linux, the model and documents directory set first). The events: "abcdef" at 100 s after
/// the reference date, "ABCx" at 200 s, "xabc" at 300 s, "abc" with no time stamp.
extension FactoryScopedTests {
    @Suite struct SeedExampleTests {
        /// The app delegate's setup, then four events saved through a runtime DAO.
        private func setUpEvents() throws -> DAOFactory {
            try freshFactory()
            // - (void)applicationDidFinishLaunching: …
            DAOFactory.setStorePath("test.sqlite")
            DAOFactory.setStoreType(NSSQLiteStoreType)

            let factory = DAOFactory.factory()
            let dao = try #require(factory.createRuntimeDAO("Event"))
            for (text, seconds) in [("abcdef", 100.0), ("ABCx", 200), ("xabc", 300), ("abc", nil)] as [(String, Double?)] {
                let event = try #require(dao.insertNewObject())
                try event.setValue(text, forKey: "stringProperty1")
                try event.setValue(seconds.map { Date(timeIntervalSinceReferenceDate: $0) }, forKey: "timeStamp")
            }
            #expect(factory.save())
            return factory
        }

        private func texts(_ objects: [Any]) -> [String] {
            objects.compactMap { ($0 as? ManagedObject).flatMap { try? $0.value(forKey: "stringProperty1") as? String } }
        }

        @Test func daoFactory() throws {
            let created = try setUpEvents()
            defer { created.closeStack() }
            // DAOFactory *factory = [DAOFactory factory];
            // DAO *dao = [factory createRuntimeDAO:@"EntityName"];
            let factory = DAOFactory.factory()
            let dao: DAO = factory.createRuntimeDAO("Event")
            #expect(dao.count() == 4)

            // MyCustomDAO *dao = (MyCustomDAO*)[factory newDAO:MyCustomDAO.class];
            let custom = factory.newDAO(MyCustomDAO.self) as MyCustomDAO
            #expect(custom.entityName == "TestEntity")
        }

        @Test func daoMethods() throws {
            let factory = try setUpEvents()
            defer { factory.closeStack() }
            let dao: DAO = factory.createRuntimeDAO("Event")
            let criteria = CDSearchCriteria.criteria()
            criteria.addFilter(CDFilter.isNotNull("timeStamp"))
            #expect(dao.findAllId().count == 4)
            #expect(dao.findAll().count == 4)
            #expect(dao.findAll(3, limit: 10).count == 1)
            #expect(dao.findAllId(criteria).count == 3)
            #expect(dao.findAll(criteria).count == 3)
            #expect(dao.findAll(criteria, fetchOffset: 1, limit: 1).count == 1)
            #expect(dao.count() == 4)
            #expect(dao.count(criteria) == 3)
            let object: ManagedObject = dao.insertNewObject()
            #expect(dao.findObjectById(object.objectID) === object)
            dao.deleteObject(object)
            #expect(dao.count() == 4)
            let first = try #require(dao.findAll(criteria).first as? ManagedObject)
            try first.setValue("changed", forKey: "stringProperty1")
            dao.refreshObject(first, mergeChanges: false)
            #expect(try first.value(forKey: "stringProperty1") as? String != "changed")
        }

        @Test func filters() throws {
            let factory = try setUpEvents()
            defer { factory.closeStack() }
            let criteria = CDSearchCriteria.criteria()
            criteria.addFilter(CDFilter.like("stringProperty1", value: "abc*", caseSensitive: false))
            criteria.addFilter(CDFilter.isNotNull("timeStamp"))
            let dao: DAO = factory.createRuntimeDAO("Event")
            // "abcdef" and "ABCx" start with abc in any case and have a time stamp; "abc" has none.
            #expect(texts(dao.findAll(criteria)).sorted() == ["ABCx", "abcdef"])
        }

        @Test func orders() throws {
            let factory = try setUpEvents()
            defer { factory.closeStack() }
            let criteria = CDSearchCriteria.criteria()
            criteria.addOrder(CDOrder.ascendingOrder("timeStamp"))
            let dao: DAO = factory.createRuntimeDAO("Event")
            // No time stamp sorts first, then 100, 200, 300 s.
            #expect(texts(dao.findAll(criteria)) == ["abc", "abcdef", "ABCx", "xabc"])
        }

        @Test func projections() throws {
            let factory = try setUpEvents()
            defer { factory.closeStack() }
            let criteria = CDSearchCriteria.criteria()
            criteria.addProjection(CDProjection.createWithProperty("timeStamp"))
            let dao: DAO = factory.createRuntimeDAO("Event")
            let rows = try #require(dao.findAll(criteria) as? [[String: Any]])
            #expect(rows.count == 4)
            // A nil value has no entry, as in a Core Data dictionary fetch.
            #expect(rows.filter(\.isEmpty).count == 1)
            #expect(rows.compactMap { ($0["timeStamp"] as? Date)?.timeIntervalSinceReferenceDate }.sorted() == [100, 200, 300])
        }

        @Test func functions() throws {
            let factory = try setUpEvents()
            defer { factory.closeStack() }
            let criteria = CDSearchCriteria.criteria()
            criteria.addFilter(CDFilter.isNotNull("timeStamp"))
            criteria.addProjection(CDProjection.createWithFunction(CDFunction.sum("timeStamp", resultType: NSDateAttributeType)))
            let dao: DAO = factory.createRuntimeDAO("Event")
            let rows = try #require(dao.findAll(criteria) as? [[String: Any]])
            // 100 + 200 + 300 seconds after the reference date.
            #expect(rows.count == 1)
            #expect((rows.first?["sum:timeStamp"] as? Date)?.timeIntervalSinceReferenceDate == 600)
        }
    }
}
