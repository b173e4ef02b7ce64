import CDQIGenerator
import CDQIModel
import Foundation

/// W9: what `cdqi` does for the largest model of the corpus (Wire's, 90 versions): load the current
/// version and generate the proxies; and, separately, loading every version of the bundle.
public enum GeneratorWorkload {
    /// Wire's bundle: `$CDQI_CORPUS/models/…` or `../shared/corpus/models/…` next to the repository.
    public static func wireBundle() -> URL? {
        let corpus: URL
        if let path = ProcessInfo.processInfo.environment["CDQI_CORPUS"], !path.isEmpty {
            corpus = URL(fileURLWithPath: path)
        } else {
            corpus = URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("shared/corpus")
        }
        let bundle = corpus.appendingPathComponent("models/wireapp__wire-ios-data-model__zmessaging.xcdatamodeld")
        return FileManager.default.fileExists(atPath: bundle.path) ? bundle : nil
    }

    /// The W9 summary line, or a line saying why it was skipped.
    public static func line(rounds: Int) throws -> String {
        guard let bundle = wireBundle() else {
            return "W9 cdqi Wire model: skipped (corpus not found; set CDQI_CORPUS to the corpus folder)"
        }
        let loader = ModelLoader()
        var generateTimes: [Double] = []
        var fileCount = 0
        for _ in 0..<(rounds + 1) {
            generateTimes.append(
                try Measurement.seconds {
                    let loaded = try loader.load(url: bundle)
                    let generation = ProxyGenerator().generate(loaded.model, modelName: loaded.modelName)
                    fileCount = generation.files().reduce(0) { $0 + $1.contents.utf8.count }
                })
        }
        generateTimes.removeFirst()
        let versions = try loader.versions(ofBundle: bundle).names
        var allTimes: [Double] = []
        for _ in 0..<max(1, rounds / 2) {
            allTimes.append(
                try Measurement.seconds {
                    for version in versions { _ = try loader.load(url: bundle, version: version) }
                })
        }
        let generate = Measurement.median(generateTimes)
        let all = Measurement.median(allTimes)
        return "W9 cdqi Wire model (\(versions.count) versions): load current + generate "
            + "\(fixedDecimals(generate * 1000)) ms (\(fileCount) bytes of Swift), "
            + "load all \(versions.count) versions \(fixedDecimals(all * 1000)) ms (ours only; goal 300 ms)"
    }

    /// A model of `count` entities, each with three attributes, a to-one to the next entity and one to
    /// the previous: the shape of a very large real model, made up so that it needs no corpus.
    public static func syntheticModel(entities count: Int) -> ManagedObjectModel {
        ManagedObjectModel(
            entities: (0..<count).map { index in
                var entity = EntityDescription(name: "Entity\(index)", representedClassName: "Entity\(index)")
                entity.attributes = [
                    AttributeDescription(name: "name", type: .string, isOptional: true),
                    AttributeDescription(name: "count", type: .integer32, isOptional: true),
                    AttributeDescription(name: "created", type: .date, isOptional: true),
                ]
                entity.relationships = [
                    RelationshipDescription(name: "next", destinationEntityName: "Entity\((index + 1) % count)"),
                    RelationshipDescription(name: "previous", destinationEntityName: "Entity\((index + count - 1) % count)"),
                ]
                return entity
            })
    }

    /// The W9 large-model line: generating the proxy files of a synthetic model of `entities` entities
    /// (issue 15: generation was quadratic, 78 s for 10,000 entities; the goal is under 2 s).
    public static func largeModelLine(entities: Int, rounds: Int) -> String {
        let model = syntheticModel(entities: entities)
        var times: [Double] = []
        var fileCount = 0
        for _ in 0..<(max(1, rounds / 2) + 1) {
            times.append(
                Measurement.seconds {
                    let generation = ProxyGenerator().generate(model, modelName: "Synthetic")
                    fileCount = generation.files().count
                })
        }
        times.removeFirst()
        return "W9 cdqi synthetic model (\(entities) entities): generate \(fixedDecimals(Measurement.median(times) * 1000)) ms "
            + "(\(fileCount) files; goal under 2000 ms for 10000 entities)"
    }
}
