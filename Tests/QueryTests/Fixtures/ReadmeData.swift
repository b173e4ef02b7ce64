import CDQIStore
import Foundation

/// Five `Entity` objects for lightyear's README examples, saved, in a fresh context:
///
/// | name  | quantity | department  | date (s after 2001) |
/// |-------|----------|-------------|---------------------|
/// | Alice | 1        | Sales       | 3                   |
/// | Bob   | 2        | Engineering | 1                   |
/// | Carol | 1        | Engineering | 2                   |
/// | Alice | 3        | Sales       | 5                   |
/// | Dave  | 0        | Sales       | 4                   |
///
/// Worked out by hand: `quantity == 1` → Alice(1), Carol; by date → Carol (2), Alice (3).
/// `name == "Alice"` → the two Alices. `quantity < 1` → Dave. `quantity BETWEEN {1, 3}` → all but
/// Dave. `(quantity == 1 AND name == "Alice") OR name == "Bob"` → Alice(1), Bob (upstream's code,
/// `quantity == 1 AND (name == "Alice" OR name == "Bob")`, gives Alice(1) only).
enum ReadmeData {
    static let rows: [(name: String, quantity: Int32, department: String, date: Double)] = [
        ("Alice", 1, "Sales", 3),
        ("Bob", 2, "Engineering", 1),
        ("Carol", 1, "Engineering", 2),
        ("Alice", 3, "Sales", 5),
        ("Dave", 0, "Sales", 4),
    ]

    /// A context whose store holds the five objects (saved), with nothing unsaved.
    static func context() throws -> ManagedObjectContext {
        let container = try PersistentContainer(model: EntityModel.model, url: nil)
        container.coordinator.register(Entity.self, forEntityName: "Entity")
        let context = container.newContext()
        for row in rows {
            let entity = try context.insert(Entity.self)
            entity.id = UUID()
            entity.name = row.name
            entity.quantity = row.quantity
            entity.department = row.department
            entity.date = Date(timeIntervalSinceReferenceDate: row.date)
        }
        try context.save()
        return container.newContext()
    }

    /// "name/quantity" of each object, in order: what the README tests compare.
    static func labels(_ entities: [Entity]) -> [String] {
        entities.map { "\($0.name ?? "nil")/\($0.quantity)" }
    }

    /// The labels sorted, for results whose order is unspecified.
    static func sortedLabels(_ entities: [Entity]) -> [String] {
        labels(entities).sorted()
    }
}
