import CDQIInterchange
import CDQIModel
import CDQITestSupport
import Foundation
import Testing

/// Stores written by Apple's Core Data export, import into a fresh store and export again with the same
/// objects and values. The `_id`s of the copy follow insertion order (an Apple store may have gaps in
/// its primary keys, or entities sharing a table), so the first comparison maps each `_id` to its
/// entity and position; a second round trip, from a store the importer wrote, is byte for byte.
@Suite struct CorpusRoundTripTests {
    struct Pair: Sendable, CustomStringConvertible {
        var store: String
        var bundle: String
        var version: String
        var description: String { store }
    }

    static let pairs = [
        Pair(store: "alemar11__CoreDataPlus__SampleModel_V1.sqlite", bundle: "alemar11__CoreDataPlus__SampleModel", version: "SampleModel"),
        Pair(store: "alemar11__CoreDataPlus__SampleModel3_V1.sqlite", bundle: "alemar11__CoreDataPlus__SampleModel3", version: "SampleModel3"),
        Pair(
            store: "duckduckgo__BrowserServicesKit__Bookmarks_V5.sqlite", bundle: "duckduckgo__BrowserServicesKit__BookmarksModel", version: "BookmarksModel 5"),
        Pair(
            store: "duckduckgo__BrowserServicesKit__SyncMetadata_V3.sqlite", bundle: "duckduckgo__BrowserServicesKit__SyncMetadata", version: "SyncMetadata 3"),
        Pair(store: "carekit-apple__CareKit__SampleStore2.0.sqlite", bundle: "carekit-apple__CareKit__CareKitStore", version: "CareKitStore2.0"),
        Pair(
            store: "richardpiazza__XCServerCoreData__XCServerCoreData_1.2.0.sqlite", bundle: "richardpiazza__XCServerCoreData__XCServerCoreData",
            version: "XCServerCoreData1.2.0"),
        Pair(store: "magicalpanda__MagicalRecord__Recipes.sqlite", bundle: "magicalpanda__MagicalRecord__Recipes", version: "Recipes"),
    ]

    @Test(.enabled(if: InterchangeTestSupport.corpus != nil, "../shared/corpus is not present beside this checkout"), arguments: pairs)
    func appleStoreRoundTrips(pair: Pair) throws {
        let corpus = try #require(InterchangeTestSupport.corpus)
        let model = try ModelLoader().load(
            url: corpus.appendingPathComponent("models/\(pair.bundle).xcdatamodeld"), version: pair.version
        ).model
        let folder = try InterchangeTestSupport.Folder()
        // Copies: opening a WAL store checkpoints it, which would change the corpus.
        let original = try CorpusStoreCopy.copy(
            named: pair.store, from: corpus.appendingPathComponent("stores"), into: folder.url)
        let first = try InterchangeTestSupport.export(model: model, from: original)
        try InterchangeTestSupport.importJSON(first, model: model, into: folder.file("copy.sqlite"))
        let second = try InterchangeTestSupport.export(model: model, from: folder.file("copy.sqlite"))
        #expect(try canonical(first, model: model) == canonical(second, model: model))

        try InterchangeTestSupport.importJSON(second, model: model, into: folder.file("copy2.sqlite"))
        #expect(try InterchangeTestSupport.export(model: model, from: folder.file("copy2.sqlite")) == second)
    }

    /// The document with every `_id`, and every reference in a relationship, replaced by
    /// `Entity#position`; to-many lists of unordered relationships sorted.
    private func canonical(_ text: String, model: ManagedObjectModel) throws -> JSONValue {
        guard case .object(let lists) = try JSONParser.parse(text) else { return .null }
        var names: [String: String] = [:]
        for (entity, list) in lists {
            guard case .array(let objects) = list else { continue }
            for (position, object) in objects.enumerated() {
                if case .object(let members) = object, case .string(let id)? = members.first(where: { $0.key == "_id" })?.value {
                    names[id] = "\(entity)#\(position)"
                }
            }
        }
        func rename(_ value: JSONValue) -> JSONValue {
            if case .string(let id) = value { return .string(names[id] ?? "dangling \(id)") }
            return value
        }
        return .object(
            lists.map { entity, list in
                guard case .array(let objects) = list, let description = model.entity(named: entity) else { return (entity, list) }
                let relationships = Dictionary(
                    model.allRelationships(of: description).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
                return (
                    entity,
                    .array(
                        objects.map { object in
                            guard case .object(let members) = object else { return object }
                            return .object(
                                members.map { key, value in
                                    if key == "_id" { return (key, rename(value)) }
                                    guard let relationship = relationships[key] else { return (key, value) }
                                    if case .array(let references) = value {
                                        var renamed = references.map(rename)
                                        if !relationship.isOrdered { renamed.sort { JSONWriter.compact($0) < JSONWriter.compact($1) } }
                                        return (key, .array(renamed))
                                    }
                                    return (key, rename(value))
                                })
                        })
                )
            })
    }
}
