import ArgumentParser
import CDQIInterchange
import CDQIModel
import CDQIPostgres
import CDQIStore
import Foundation

/// `cdqi inspect`: what a store says about itself, and which version of a bundle wrote it.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Prints a store's metadata, model version and object counts.",
        discussion: """
            Prints the store's UUID, framework version, version identifiers and entity version \
            hashes, whether it carries its model (Z_MODELCACHE), and the objects of each entity. \
            With a model bundle, also the version(s) whose hashes match the store, or the nearest \
            version and what differs. The store is a SQLite file, or a PostgreSQL schema given as \
            postgres://user:password@host:port/database?schema=name. Reads the store without \
            writing to it (a schema without a store is refused, never given one).

            Exit status: 0 on success, 1 when the store or the model cannot be read.
            """
    )

    @Argument(help: "The SQLite store file, or a PostgreSQL URL postgres://user:password@host:port/database?schema=name.")
    var store: String

    @Argument(help: "A model bundle (name found under the current folder, or a path) to match the store against.")
    var model: String?

    func run() throws {
        let location = try StoreCommandSupport.location(store)
        let reader: StoreReader
        do {
            reader = try StoreReader(location)
        } catch {
            throw StoreCommandSupport.fail("\(error)")
        }
        let metadata = reader.metadata
        // A URL is shown without its password.
        var text = "store: \(StoreLocation.isDatabaseURL(store) ? location.description : store)\n"
        text += "uuid: \(metadata.uuid)\n"
        text += "framework version: \(metadata.frameworkVersion.map(String.init) ?? "none")\n"
        text += "version identifiers: \(metadata.versionIdentifiers.map { "'\($0)'" }.joined(separator: ", "))\n"
        text += "entity version hashes (\(metadata.entityHashes.count)):\n"
        for (name, hash) in metadata.entityHashes.sorted(by: { $0.key < $1.key }) {
            text += "  \(name) \(hash.map { String(format: "%02x", $0) }.joined())\n"
        }
        var rowModel: ManagedObjectModel?
        let carried: String
        if !reader.carriesModel {
            carried = "no"
        } else {
            do {
                rowModel = try reader.carriedModel()
                carried = "yes (\(rowModel?.entities.count ?? 0) entities, matching the hashes)"
            } catch {
                carried = "yes, but unusable: \(error)"
            }
        }
        text += "carries its model (Z_MODELCACHE): \(carried)\n"
        if let model {
            let bundle = try StoreCommandSupport.loadBundle(model)
            let matches = bundle.versions(matching: metadata)
            if matches.isEmpty {
                let nearest = bundle.nearestVersion(to: metadata)
                text += "version: none of \(bundle.url.lastPathComponent) matches; nearest '\(nearest.version.model.versionName ?? "")':\n"
                text += nearest.differences.map { "  - \($0)\n" }.joined()
            } else {
                text += "version: " + matches.map { "'\($0.model.versionName ?? "")'" }.joined(separator: ", ")
                text += matches.count > 1 ? " (identical hashes)\n" : "\n"
                rowModel = bundle.version(matching: metadata)?.model ?? rowModel
            }
        }
        if let rowModel {
            text += "objects:\n"
            do {
                for (name, count) in try reader.rowCounts(rowModel) { text += "  \(name) \(count)\n" }
            } catch let error as QueryError {
                throw StoreCommandSupport.fail(error.description)
            } catch {
                throw StoreCommandSupport.fail("\(location): cannot count the objects: \(error)")
            }
        } else {
            text += "objects: unknown (no model: give the store's model bundle)\n"
        }
        StoreCommandSupport.write(text)
    }

    /// What `inspect` reads of a store, from a SQLite file (read-only) or a PostgreSQL schema (through
    /// a ``PostgresStoreProbe``, which never creates a store).
    struct StoreReader {
        let metadata: StoreMetadata
        let carriesModel: Bool
        let carriedModel: () throws -> ManagedObjectModel
        let rowCounts: (ManagedObjectModel) throws -> [(String, Int)]

        init(_ location: StoreLocation) throws {
            switch location {
            case .file(let url):
                metadata = try StoreMetadata.read(from: url)
                carriesModel = ManagedObjectModel.storeCarriesModel(at: url)
                carriedModel = { try ManagedObjectModel(storeModelCacheAt: url) }
                rowCounts = { model in
                    do {
                        return try Inspect.rowCounts(url, model: model)
                    } catch {
                        throw QueryError.store("\(url.path): cannot count the objects: \(error)")
                    }
                }
            case .postgres(let url):
                let probe = try PostgresStoreProbe(url: url)
                metadata = probe.metadata
                carriesModel = ((try? probe.modelCacheBlob()) ?? nil) != nil
                carriedModel = { try probe.carriedModel() }
                rowCounts = { model in try probe.rowCounts(model: model) }
            }
        }
    }

    /// Each entity's own objects (sub-entities' not included), read-only.
    static func rowCounts(_ url: URL, model: ManagedObjectModel) throws -> [(String, Int)] {
        let schema = StoreSchema(model: model)
        let connection = try SQLiteConnection.openForReading(path: url.path)
        var counts: [(String, Int)] = []
        for entity in schema.entities.sorted(by: { $0.name < $1.name }) {
            let statement = try connection.prepareUncached("SELECT COUNT(*) FROM \(entity.tableName) WHERE Z_ENT = ?")
            try statement.bind(Int64(entity.number), at: 1)
            counts.append((entity.name, try statement.step() ? Int(statement.int64(0)) : 0))
        }
        return counts
    }
}
