import CDQIGenerator
import CDQIModel
import Foundation
import Testing

/// Generation time grows about linearly with the number of entities (issue 15, finding 4: it was
/// quadratic, 78 s for 10,000 entities). The benchmark's W9 reports the 10,000-entity figure.
@Suite struct GenerationScalingTests {
    /// `count` entities, each with three attributes, a to-one to the next entity and a to-many back.
    static func syntheticEntities(_ count: Int) -> [EntityDescription] {
        (0..<count).map { index in
            makeEntity(
                "Entity\(index)",
                attributes: [("name", .string), ("count", .integer32), ("created", .date)],
                relationships: [("next", "Entity\((index + 1) % count)"), ("previous", "Entity\((index + count - 1) % count)")])
        }
    }

    /// One generation of `model`, in seconds.
    private func seconds(_ model: ManagedObjectModel, entities: Int) -> Double {
        let start = Date()
        let generation = ProxyGenerator().generate(model, modelName: "Synthetic")
        #expect(generation.files().count >= entities)
        return Date().timeIntervalSince(start)
    }

    @Test("4× the entities take well under 16× the time (linear: 4×, quadratic: 16×)")
    func nearLinear() {
        let small = ManagedObjectModel(entities: Self.syntheticEntities(1_000))
        let large = ManagedObjectModel(entities: Self.syntheticEntities(4_000))
        // The fastest of three interleaved runs each: other tests share the machine.
        var smallBest = Double.infinity, largeBest = Double.infinity
        for _ in 0..<3 {
            smallBest = min(smallBest, seconds(small, entities: 1_000))
            largeBest = min(largeBest, seconds(large, entities: 4_000))
        }
        // 10 allows for noise while failing a quadratic planner (16×; it measured 20× before the fix).
        #expect(largeBest < smallBest * 10, "1,000 entities: \(smallBest) s, 4,000 entities: \(largeBest) s")
    }
}
