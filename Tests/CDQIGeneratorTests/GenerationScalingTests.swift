import CDQIGenerator
import CDQIModel
import Foundation
import Testing

/// Large models generate completely (issue 15, finding 4: generation was quadratic in the number of
/// entities, 78 s for 10,000). Its speed is measured by the benchmark, not here: W9's large-model line
/// generates 10,000 entities and prints the time against its 2 s goal; a timed test would only measure
/// the machine's load.
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

    @Test("4,000 entities: every entity generated once, every file name different")
    func largeModelIsComplete() {
        let model = ManagedObjectModel(entities: Self.syntheticEntities(4_000))
        let files = ProxyGenerator().generate(model, modelName: "Synthetic").files()
        let names = files.map(\.name)
        #expect(Set(names).count == names.count)
        let generated = files.flatMap(\.entityNames)
        #expect(generated.count == Set(generated).count, "an entity generated twice")
        #expect(Set(generated) == Set((0..<4_000).map { "Entity\($0)" }))
    }
}
