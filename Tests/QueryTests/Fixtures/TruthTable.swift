import CDQIStore
import Foundation

/// Sixteen `Entity` objects, one per combination of four conditions, for the `or` grouping tests:
///
/// - A: `quantity == 1` (else 0)
/// - B: `name == "x"` (else "y")
/// - C: `department == "d"` (else "e")
/// - D: `price == 1` (else 0)
///
/// Each object is labeled by its truth values, `"1010"` = A and C hold. The expected results are the
/// labels a boolean formula, written by hand in each test, accepts.
enum TruthTable {
    static let labels: [String] = (0..<16).map { bits in
        (0..<4).map { bit in (bits >> (3 - bit)) & 1 == 1 ? "1" : "0" }.joined()
    }

    /// A context with the sixteen objects, saved (`saved: true`) or only inserted.
    static func context(saved: Bool) throws -> ManagedObjectContext {
        let container = try PersistentContainer(model: EntityModel.model, url: nil)
        container.coordinator.register(Entity.self, forEntityName: "Entity")
        let context = container.newContext()
        for label in labels {
            let bits = label.map { $0 == "1" }
            let entity = try context.insert(Entity.self)
            entity.quantity = bits[0] ? 1 : 0
            entity.name = bits[1] ? "x" : "y"
            entity.department = bits[2] ? "d" : "e"
            entity.price = bits[3] ? 1 : 0
        }
        if saved {
            try context.save()
            return container.newContext()
        }
        return context
    }

    /// The label of an object.
    static func label(_ entity: Entity) -> String {
        [entity.quantity == 1, entity.name == "x", entity.department == "d", entity.price == 1]
            .map { $0 ? "1" : "0" }.joined()
    }

    /// The labels of the objects, sorted.
    static func labels(_ entities: [Entity]) -> [String] { entities.map(label).sorted() }

    /// The labels whose truth values satisfy `formula(A, B, C, D)`, sorted.
    static func expected(_ formula: (Bool, Bool, Bool, Bool) -> Bool) -> [String] {
        labels.filter { label in
            let b = label.map { $0 == "1" }
            return formula(b[0], b[1], b[2], b[3])
        }.sorted()
    }
}
