import CDQIInterchange
import CDQIModel
import Foundation

/// Fixture models, temporary stores, and the bytes of a store on disk.
enum InterchangeTestSupport {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The shared corpus, when this checkout has one beside it.
    static let corpus: URL? = {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    /// A fixture model (`Company`, `Developers`).
    static func model(_ name: String) throws -> ManagedObjectModel {
        try ModelLoader().load(url: packageRoot.appendingPathComponent("Fixtures/\(name).xcdatamodeld")).model
    }

    /// A new empty folder, removed when the returned object is released.
    final class Folder {
        let url: URL

        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-interchange-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: url) }

        func file(_ name: String) -> URL { url.appendingPathComponent(name) }

        /// Every file of the folder with its bytes: a store and its sidecars, to compare before and after.
        func snapshot() throws -> [String: Data] {
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
                files[name] = try Data(contentsOf: file(name))
            }
            return files
        }
    }

    /// Imports `json` into the store at `url` with `model`.
    @discardableResult
    static func importJSON(_ json: String, model: ManagedObjectModel, into url: URL) throws -> ImportSummary {
        try StoreImporter(model: model).importDocument(Data(json.utf8), into: url)
    }

    /// The export text of the store at `url`.
    static func export(model: ManagedObjectModel, from url: URL, entity: String? = nil) throws -> String {
        try StoreExporter(model: model).exportText(storeURL: url, entity: entity)
    }

    /// The members of each object of an exported document, by entity and `_id`.
    static func objects(in text: String) throws -> [String: [String: [String: JSONValue]]] {
        guard case .object(let lists) = try JSONParser.parse(text) else { return [:] }
        var result: [String: [String: [String: JSONValue]]] = [:]
        for (entity, list) in lists {
            guard case .array(let elements) = list else { continue }
            var byID: [String: [String: JSONValue]] = [:]
            for case .object(let members) in elements {
                var values: [String: JSONValue] = [:]
                for (key, value) in members { values[key] = value }
                if case .string(let id)? = values["_id"] { byID[id] = values }
            }
            result[entity] = byID
        }
        return result
    }
}
