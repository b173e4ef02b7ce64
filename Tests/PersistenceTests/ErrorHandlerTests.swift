import Foundation
import Persistence
import Testing

/// The process-wide error handler and the per-DAO and per-factory ones.
@Suite struct ErrorHandlerTests {
    @Test func theProcessWideHandlerReceivesReports() {
        let collector = ErrorCollector()
        let previous = Persistence.errorHandler
        Persistence.errorHandler = collector.handler
        defer { Persistence.errorHandler = previous }
        let marker = "marker-\(UUID().uuidString)"
        #expect(CDFilter(property: marker).createPredicate() == nil)
        // Other suites may report at the same time: count only this test's error.
        let mine = collector.errors.filter { "\($0)".contains(marker) }
        #expect(mine.count == 1)
        if case PersistenceError.invalidFilter(let property, _)? = mine.first {
            #expect(property == marker)
        } else {
            Issue.record("expected an invalid filter error, got \(mine)")
        }
    }

    @Test func aDAOHandlerTakesTheDAOsReports() throws {
        let dao = RuntimeDAO(contextAndEntityName: try TestStore.filledContext(), entityName: "TestEntity")
        let collector = ErrorCollector()
        dao.errorHandler = collector.handler
        let criteria = CDSearchCriteria()
        criteria.addProjection(CDProjection.createWithProperty("nope"))
        // Fetching an unknown key path returns [] and reports one error.
        #expect(dao.findAll(criteria).isEmpty)
        #expect(collector.errors.count == 1)
        #expect("\(collector.errors[0])".contains("nope"))
    }

    @Test func errorsNameTheProblem() {
        #expect(
            PersistenceError.unsupportedStoreType("XML").description
                == #"Persistence: store type "XML" is not supported (use NSSQLiteStoreType or NSInMemoryStoreType)"#)
        #expect(PersistenceError.modelNotSet.description.contains("DAOFactory.setModel(_:)"))
        #expect(PersistenceError.storePathNotSet.description.contains("setStorePath"))
    }
}
