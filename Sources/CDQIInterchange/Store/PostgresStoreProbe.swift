import CDQIModel
import CDQIPostgres
import CDQIStore
import Foundation

/// Reads what a PostgreSQL store says about itself (its metadata, the model it carries, its objects)
/// without opening it as a store: opening a ``PostgresStore`` creates one in an empty schema, which a
/// reading command must never do.
///
/// ```swift
/// let probe = try PostgresStoreProbe(url: url)     // refuses a schema with no store
/// let model = try probe.carriedModel()              // Z_MODELCACHE, checked against the metadata
/// ```
public final class PostgresStoreProbe {
    /// Where the store is.
    public let url: PostgresURL
    /// The store's metadata, read from `Z_METADATA`.
    public let metadata: StoreMetadata
    private let connection: PostgresConnection
    private let layoutName: (String) -> String

    /// Connects and reads the store's metadata.
    ///
    /// - Throws: ``QueryError/missingStore(path:)`` naming the URL (without its password) when the
    ///   schema holds no store (no `Z_METADATA` table), ``QueryError/store(_:)`` when the server cannot
    ///   be reached or refuses, or the metadata cannot be read.
    public init(url: PostgresURL) throws(QueryError) {
        self.url = url
        let schema = url.schema
        layoutName = { PostgresConnection.quoteIdentifier(schema) + "." + PostgresConnection.quoteIdentifier($0) }
        do {
            connection = try PostgresConnection(url: url)
        } catch {
            throw .store("\(url): cannot connect: \(error.description)")
        }
        do {
            let tables = try connection.query(
                "SELECT table_name::text FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'Z_METADATA'",
                [.string(schema)])
            guard tables.rowCount == 1 else {
                connection.close()
                throw QueryError.missingStore(path: url.description)
            }
            let row = try connection.query("SELECT \"Z_UUID\", \"Z_PLIST\" FROM \(layoutName("Z_METADATA")) WHERE \"Z_VERSION\" = 1")
            guard row.rowCount == 1, let uuid = try row.string(row: 0, column: 0), let plist = try row.data(row: 0, column: 1) else {
                throw QueryError.store("\(url): cannot read the store metadata: Z_METADATA has no row with a property list")
            }
            metadata = try StoreMetadata(uuid: uuid, plist: plist, path: url.description)
        } catch let error as QueryError {
            connection.close()
            throw error
        } catch {
            connection.close()
            throw .store("\(url): cannot read the store metadata: \(error)")
        }
    }

    deinit {
        connection.close()
    }

    /// The `Z_MODELCACHE` blob; `nil` when there is no table, no row, or NULL.
    public func modelCacheBlob() throws(QueryError) -> [UInt8]? {
        do {
            let table = try connection.query(
                "SELECT count(*) FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'Z_MODELCACHE'",
                [.string(url.schema)])
            guard try table.int64(row: 0, column: 0) == 1 else { return nil }
            let row = try connection.query("SELECT \"Z_CONTENT\" FROM \(layoutName("Z_MODELCACHE")) LIMIT 1")
            guard row.rowCount == 1, let data = try row.data(row: 0, column: 0), !data.isEmpty else { return nil }
            return [UInt8](data)
        } catch {
            throw .store("\(url): cannot read Z_MODELCACHE: \(error.description)")
        }
    }

    /// The model the store carries in `Z_MODELCACHE`, checked against its metadata (its entity version
    /// hashes equal the store's), as ``ManagedObjectModel/init(storeModelCacheAt:)`` reads a file's.
    ///
    /// - Throws: ``QueryError/store(_:)`` for a store without one, one that cannot be decoded, or one
    ///   that does not match the metadata.
    public func carriedModel() throws(QueryError) -> ManagedObjectModel {
        guard let blob = try modelCacheBlob() else {
            throw .store("\(url): the store carries no model (Z_MODELCACHE is empty): give the model")
        }
        var model: ManagedObjectModel
        do {
            model = try ManagedObjectModel(modelCache: blob)
        } catch {
            throw .store("\(url): cannot decode the model in Z_MODELCACHE: \(error)")
        }
        let differences = metadata.incompatibilities(with: model)
        guard differences.isEmpty else {
            throw .store(
                "\(url): the model in Z_MODELCACHE does not match the store's metadata:\n"
                    + differences.map { "  - \($0)" }.joined(separator: "\n"))
        }
        model.versionName = nil
        return model
    }

    /// Each entity's own objects (sub-entities' not included), in entity-name order.
    public func rowCounts(model: ManagedObjectModel) throws(QueryError) -> [(String, Int)] {
        let schema = StoreSchema(model: model)
        var counts: [(String, Int)] = []
        do {
            for entity in schema.entities.sorted(by: { $0.name < $1.name }) {
                let result = try connection.query(
                    "SELECT count(*) FROM \(layoutName(entity.tableName)) WHERE \"Z_ENT\" = $1", [.integer(Int64(entity.number))])
                counts.append((entity.name, Int(try result.int64(row: 0, column: 0) ?? 0)))
            }
        } catch {
            throw .store("\(url): cannot count the objects: \(error.description)")
        }
        return counts
    }
}
