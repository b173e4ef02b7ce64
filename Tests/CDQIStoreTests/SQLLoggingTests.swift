import CDQIModel
import CDQIPredicate
import CDQIStore
import Foundation
import Logging
import Synchronization
import Testing

/// `logSQL(to:)`: statements with their bound values and durations at `.debug`, row counts at `.trace`,
/// nothing when off.
@Suite struct SQLLoggingTests {
    /// Keeps what was logged.
    final class Captured: Sendable {
        struct Entry: Sendable {
            var level: Logger.Level
            var message: String
            var metadata: [String: String]
        }
        let entries = Mutex<[Entry]>([])
        var all: [Entry] { entries.withLock { $0 } }
    }

    struct CapturingHandler: LogHandler {
        let captured: Captured
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let metadata = (event.metadata ?? [:]).mapValues { "\($0)" }
            captured.entries.withLock { $0.append(.init(level: event.level, message: "\(event.message)", metadata: metadata)) }
        }
    }

    private func logger(_ level: Logger.Level, _ captured: Captured) -> Logger {
        var logger = Logger(label: "sql") { _ in CapturingHandler(captured: captured, logLevel: level) }
        logger.logLevel = level
        return logger
    }

    /// A context on a new in-memory Company store holding three employees, saved.
    private func seeded() throws -> ManagedObjectContext {
        let context = try ContextTestSupport.memoryContext("Company")
        for (first, salary) in [("Ann", 120_000), ("Bob", 95_000), ("Cy", 40_000)] {
            _ = try ContextTestSupport.insert(context, "Employee", ["firstName": first, "lastName": "X", "salary": Int32(salary)])
        }
        try context.save()
        return context
    }

    private func fetchRich(_ context: ManagedObjectContext) throws -> Int {
        try context.fetch(FetchRequest(entityName: "Employee", predicate: try PredicateNode(format: "salary > %@", 90_000))).count
    }

    @Test func debugLogsEachStatementWithItsValuesAndDuration() throws {
        let context = try seeded()
        let captured = Captured()
        context.coordinator.logSQL(to: logger(.debug, captured))
        #expect(try fetchRich(context) == 2)
        let selects = captured.all.filter { $0.message.hasPrefix("SELECT") && $0.message.contains("ZEMPLOYEE") }
        #expect(selects.count == 1)
        // The bound value is written into the SQL.
        #expect(selects.first?.message.contains("t0.ZSALARY > 90000") == true)
        #expect(selects.first?.level == .debug)
        #expect(selects.first.flatMap { Double($0.metadata["duration_ms"] ?? "") } != nil)
        #expect(selects.first?.metadata["rows"] == nil)
    }

    @Test func traceAlsoCountsRows() throws {
        let context = try seeded()
        let captured = Captured()
        context.coordinator.logSQL(to: logger(.trace, captured))
        #expect(try fetchRich(context) == 2)
        let select = try #require(captured.all.first { $0.message.hasPrefix("SELECT") && $0.message.contains("ZSALARY > 90000") })
        #expect(select.level == .trace)
        #expect(select.metadata["rows"] == "2")
    }

    @Test func readsOfThePoolAreLoggedToo() throws {
        let (coordinator, _, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        #expect(coordinator.readerCount > 0)
        let context = ManagedObjectContext(coordinator: coordinator)
        for (first, salary) in [("Ann", 120_000), ("Bob", 95_000), ("Cy", 40_000)] {
            _ = try ContextTestSupport.insert(context, "Employee", ["firstName": first, "lastName": "X", "salary": Int32(salary)])
        }
        try context.save()
        // A reader opened before logging was switched on catches up when it is next taken.
        let reader = ManagedObjectContext(coordinator: coordinator)
        #expect(try fetchRich(reader) == 2)
        let captured = Captured()
        coordinator.logSQL(to: logger(.trace, captured))
        #expect(try fetchRich(ManagedObjectContext(coordinator: coordinator)) == 2)
        let select = try #require(captured.all.first { $0.message.hasPrefix("SELECT") && $0.message.contains("ZSALARY > 90000") })
        #expect(select.metadata["rows"] == "2")
        coordinator.logSQL(to: nil)
        let before = captured.all.count
        _ = try fetchRich(ManagedObjectContext(coordinator: coordinator))
        #expect(captured.all.count == before)
    }

    @Test func offMeansNothing() throws {
        let context = try seeded()
        let captured = Captured()
        context.coordinator.logSQL(to: logger(.info, captured))
        _ = try fetchRich(context)
        context.coordinator.logSQL(to: logger(.debug, captured))
        context.coordinator.logSQL(to: nil)
        _ = try fetchRich(context)
        #expect(captured.all.isEmpty)
    }
}
