import CDQIModel
import CDQIStore
import Foundation
import Persistence

/// In-memory stores of the fixture model, filled with upstream's two test rows.
enum TestStore {
    /// A context over a new in-memory store of ``FixtureModel/test``.
    static func emptyContext() throws -> ManagedObjectContext {
        try PersistentContainer(model: FixtureModel.test, url: nil).newContext()
    }

    /// A context with the two rows, saved: TestEntity "abc" (intProperty 10, no child) and "te2"
    /// (intProperty 20, one Child with intProperty 1).
    static func filledContext() throws -> ManagedObjectContext {
        let context = try emptyContext()
        try fill(context)
        return context
    }

    /// Inserts and saves the two rows in `context`.
    static func fill(_ context: ManagedObjectContext) throws {
        let abc = try context.insertNewObject(forEntityName: "TestEntity")
        try abc.setValue("abc", forKey: "name")
        try abc.setValue(10, forKey: "intProperty")
        let te2 = try context.insertNewObject(forEntityName: "TestEntity")
        try te2.setValue("te2", forKey: "name")
        try te2.setValue(20, forKey: "intProperty")
        let child = try context.insertNewObject(forEntityName: "Child")
        try child.setValue(1, forKey: "intProperty")
        try child.setValue(te2, forKey: "owner")
        _ = try context.save()
    }

    /// The names of `objects` (managed objects), sorted.
    static func names(_ objects: [Any]) -> [String] {
        objects.compactMap { ($0 as? ManagedObject).flatMap { try? $0.value(forKey: "name") as? String } }.sorted()
    }
}

/// Collects the errors reported to a handler.
final class ErrorCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [any Error] = []

    var errors: [any Error] { lock.withLock { collected } }

    var handler: @Sendable (any Error) -> Void {
        { [self] error in lock.withLock { collected.append(error) } }
    }
}
