import CDQIModel
import CDQIPostgres
import CDQIPredicate
import CDQIStore
import Foundation

/// A query of one entity of a store, as `cdqi query` takes it: a predicate in NSPredicate format, sort
/// keys, a window, and optionally the columns to select and group by.
///
/// Without ``select`` and ``groupBy`` the result has one row per object: its `_id` (`Entity/pk`), its
/// stored attributes and its to-one relationships (as `_id`s). With them, it is a dictionary fetch:
/// one column per selected key path or aggregate (`count:(salary)`, `max:(salary)`, … named as written),
/// one row per object or per group.
///
/// ```swift
/// var query = StoreQuery(entityName: "Employee")
/// query.predicate = "salary > 50000"
/// query.order = ["lastName", "salary:desc"]
/// let table = try query.run(model: model, storeURL: url)
/// ```
public struct StoreQuery: Sendable {
    /// The entity queried (its sub-entities' objects included).
    public var entityName: String
    /// The condition, in NSPredicate format, or `nil` for every object.
    public var predicate: String?
    /// Sort keys: `keyPath`, `keyPath:asc` or `keyPath:desc`.
    public var order: [String] = []
    /// The most rows to return, or `nil` (or 0, as in a fetch request) for no limit.
    public var limit: Int?
    /// How many rows to skip.
    public var offset: Int?
    /// The columns of a dictionary fetch: key paths, or aggregate expressions such as `max:(salary)`.
    public var select: [String] = []
    /// The key paths to group by.
    public var groupBy: [String] = []

    /// Creates a query of every object of an entity.
    public init(entityName: String) {
        self.entityName = entityName
    }

    /// Whether this query is a dictionary fetch (it selects or groups).
    public var isDictionaryFetch: Bool { !select.isEmpty || !groupBy.isEmpty }

    /// The fetch request the query runs.
    public func request(model: ManagedObjectModel) throws(QueryError) -> FetchRequest {
        guard model.entity(named: entityName) != nil else {
            throw .unknownEntity(name: entityName, known: model.entities.map(\.name))
        }
        var request = FetchRequest(entityName: entityName, fetchLimit: max(limit ?? 0, 0), fetchOffset: max(offset ?? 0, 0))
        if let predicate {
            do {
                request.predicate = try PredicateNode(format: predicate)
            } catch {
                throw .badPredicate(error)
            }
        }
        for key in order {
            var path = key
            var ascending = true
            if let colon = key.lastIndex(of: ":") {
                path = String(key[..<colon])
                switch key[key.index(after: colon)...].lowercased() {
                case "asc": ascending = true
                case "desc": ascending = false
                default: throw .badOrder(key)
                }
            }
            guard !path.isEmpty else { throw .badOrder(key) }
            request.sortDescriptors.append(FetchSortDescriptor(keyPath: path, ascending: ascending))
        }
        if isDictionaryFetch {
            let columns = select.isEmpty ? groupBy : select
            for column in columns {
                if column.contains("(") {
                    do {
                        let expression = try ExpressionNode(format: column)
                        request.propertiesToFetch.append(.expression(ExpressionDescription(name: column, expression: expression)))
                    } catch {
                        throw .badSelection(column, error)
                    }
                } else {
                    request.propertiesToFetch.append(.keyPath(column))
                }
            }
            request.propertiesToGroupBy = groupBy.map { .keyPath($0) }
        }
        return request
    }

    /// Runs the query on the store at `storeURL`, which must exist.
    public func run(model: ManagedObjectModel, storeURL: URL) throws(QueryError) -> ResultTable {
        try run(model: model, store: .file(storeURL))
    }

    /// Runs the query on the store at `location`, which must exist: a SQLite file is opened read-only,
    /// and a PostgreSQL schema without a store is refused (``QueryError/missingStore(path:)``).
    public func run(model: ManagedObjectModel, store location: StoreLocation) throws(QueryError) -> ResultTable {
        let request = try request(model: model)
        if isDictionaryFetch {
            let rows: [[String: StoredValue]]
            switch location {
            case .file(let storeURL):
                let store = try Self.openStore(model: model, url: storeURL)
                do {
                    rows = try store.fetchDictionaries(request)
                } catch {
                    throw Self.classify(error)
                }
            case .postgres:
                let context = try Self.openContext(model: model, location: location)
                do {
                    rows = try context.fetchDictionaries(request)
                } catch {
                    throw Self.classify(error)
                }
            }
            let columns = request.propertiesToFetch.map(\.name)
            return ResultTable(columns: columns, rows: rows.map { row in columns.map { row[$0] ?? .null } })
        }
        let context = try Self.openContext(model: model, location: location)
        guard let entity = model.entity(named: entityName) else {
            throw .unknownEntity(name: entityName, known: model.entities.map(\.name))
        }
        let attributes = model.allAttributes(of: entity).filter { !$0.isTransient && $0.type != .undefined && $0.type != .composite }
        let toOnes = model.allRelationships(of: entity).filter { !$0.isTransient && !$0.isToMany }
        var rows: [[StoredValue]] = []
        do {
            let fetched = try context.fetch(request)
            for object in request.sortDescriptors.isEmpty ? fetched.sortedByPrimaryKey() : fetched {
                var row: [StoredValue] = [.objectID(object.objectID.reference)]
                for attribute in attributes {
                    // A sub-entity's object has them all; the entity queried declares them.
                    row.append(try object.storedValue(forKey: attribute.name))
                }
                for relationship in toOnes {
                    row.append(try object.object(forKey: relationship.name).map { .objectID($0.objectID.reference) } ?? .null)
                }
                rows.append(row)
            }
        } catch {
            throw Self.classify(error)
        }
        return ResultTable(columns: ["_id"] + attributes.map(\.name) + toOnes.map(\.name), rows: rows)
    }

    /// The number of rows ``run(model:storeURL:)`` would return (objects, or groups when grouping).
    public func count(model: ManagedObjectModel, storeURL: URL) throws(QueryError) -> Int {
        try count(model: model, store: .file(storeURL))
    }

    /// The number of rows ``run(model:store:)`` would return (objects, or groups when grouping).
    public func count(model: ManagedObjectModel, store location: StoreLocation) throws(QueryError) -> Int {
        let request = try request(model: model)
        if isDictionaryFetch { return try run(model: model, store: location).rows.count }
        let context = try Self.openContext(model: model, location: location)
        do {
            return try context.count(for: request)
        } catch {
            throw Self.classify(error)
        }
    }

    /// The comparisons of the query's predicate between an attribute and a constant of another kind,
    /// which the predicate language makes always false (true for `!=`).
    public func mixedKindComparisons(model: ManagedObjectModel) throws(QueryError) -> [MixedKindComparison] {
        guard let predicate = try request(model: model).predicate else { return [] }
        return MixedKindComparison.find(in: predicate, entityName: entityName, model: model)
    }

    /// How the store runs the query: its SQL, bindings, SQLite's plan and warnings (`cdqi query --explain`).
    public func explain(model: ManagedObjectModel, storeURL: URL) throws(QueryError) -> FetchExplanation {
        try explain(model: model, store: .file(storeURL))
    }

    /// How the store at `location` runs the query: its SQL, bindings, the database's plan (SQLite's
    /// `EXPLAIN QUERY PLAN`, PostgreSQL's `EXPLAIN`) and warnings.
    public func explain(model: ManagedObjectModel, store location: StoreLocation) throws(QueryError) -> FetchExplanation {
        let request = try request(model: model)
        switch location {
        case .file(let storeURL):
            let store = try Self.openStore(model: model, url: storeURL)
            do {
                return try store.explain(request)
            } catch {
                throw Self.classify(error)
            }
        case .postgres:
            let context = try Self.openContext(model: model, location: location)
            do {
                return try context.coordinator.store.explain(request)
            } catch {
                throw Self.classify(error)
            }
        }
    }

    // MARK: Opening stores without creating them

    /// Refuses a missing store file: opening would create one.
    static func checkExists(_ url: URL) throws(QueryError) {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: url.path, isDirectory: &isDirectory) else { throw .missingStore(path: url.path) }
        guard !isDirectory.boolValue else { throw .store("\(url.path): is a folder, not a store file") }
        let size = (try? manager.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        let walSize = (try? manager.attributesOfItem(atPath: url.path + "-wal")[.size] as? Int) ?? 0
        // An empty file would be turned into a new store by opening it.
        guard size > 0 || walSize > 0 else { throw .store("\(url.path): the file is empty, not a store") }
    }

    /// Opens an existing store read-only: reading commands never change the file or its sidecars.
    static func openStore(model: ManagedObjectModel, url: URL) throws(QueryError) -> SQLiteStore {
        try checkExists(url)
        do {
            return try SQLiteStore(model: model, url: url, readOnly: true)
        } catch {
            throw .store(Self.naming(url, error.description))
        }
    }

    /// A context on an existing store opened read-only (see ``openStore(model:url:)``).
    static func openContext(model: ManagedObjectModel, url: URL) throws(QueryError) -> ManagedObjectContext {
        try checkExists(url)
        do {
            return ManagedObjectContext(coordinator: try PersistentStoreCoordinator(model: model, url: url, readOnly: true))
        } catch {
            throw .store(Self.naming(url, error.description))
        }
    }

    /// A context on an existing store: a SQLite file opened read-only (see ``openStore(model:url:)``),
    /// or the store in a PostgreSQL schema, refused when the schema holds none (opening a
    /// ``PostgresStore`` would create one).
    static func openContext(model: ManagedObjectModel, location: StoreLocation) throws(QueryError) -> ManagedObjectContext {
        switch location {
        case .file(let url):
            return try openContext(model: model, url: url)
        case .postgres(let url):
            return ManagedObjectContext(coordinator: try openCoordinator(model: model, url: url, creating: false))
        }
    }

    /// A coordinator over the store in `url`'s schema; unless `creating`, a schema without a store is
    /// refused (``QueryError/missingStore(path:)``) before the store is opened.
    static func openCoordinator(model: ManagedObjectModel, url: PostgresURL, creating: Bool) throws(QueryError) -> PersistentStoreCoordinator {
        if !creating { _ = try PostgresStoreProbe(url: url) }
        do {
            return PersistentStoreCoordinator(model: model, store: try PostgresStore(model: model, url: url, connections: 2))
        } catch {
            throw .store(error.description)
        }
    }

    /// The message with the store's path in front, unless it names it already.
    static func naming(_ url: URL, _ message: String) -> String {
        message.contains(url.path) ? message : "\(url.path): \(message)"
    }

    private static func classify(_ error: any Error) -> QueryError {
        switch error {
        case let error as QueryError: error
        case let error as PredicateSQLError: .invalidRequest(error.description)
        case let error as SQLiteError where error.isCorruption: .store("cannot read the store: the store is damaged: \(error.description)")
        case let error as CustomStringConvertible: .store("cannot read the store: \(error.description)")
        default: .store("cannot read the store: \(error)")
        }
    }
}
