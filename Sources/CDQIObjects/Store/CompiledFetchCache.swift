import CDQIModel
import CDQIPredicate

/// The SQL of fetches already compiled on a store, by shape: the entity, the predicate with its
/// constants replaced by slots (and their classes), the order, and whether there is a window. A fetch
/// of a known shape only binds its constants to the cached statement.
package final class CompiledFetchCache {
    struct Key: Hashable {
        var entityName: String
        var shape: FetchSQLBuilder.Shape
        var includesSubentities: Bool
        var hasWindow: Bool
        var sortDescriptors: [FetchSortDescriptor]
        var predicate: PredicateNode?
        var classes: [PredicateParameterizer.ConstantClass]
    }

    /// A compiled shape: its SQL, what to bind, and the statement prepared for it on the store's
    /// connection (kept here so that running the shape again skips the connection's lookup by SQL text).
    package final class Entry {
        package let sql: String
        package let bindings: [SQLBinding]
        /// The store's prepared statement (the SQLite store's `SQLiteStatement`).
        package var statement: AnyObject? {
            get { preparedStatement }
            set { preparedStatement = newValue }
        }
        /// Unchecked at run time: an entry belongs to one store connection, used by one caller at a
        /// time (the check cost as much as binding a count's constants). Behind ``statement``, so that
        /// other modules' accesses go through this module, where the attribute applies.
        @exclusivity(unchecked) private var preparedStatement: AnyObject?

        init(sql: String, bindings: [SQLBinding]) {
            self.sql = sql
            self.bindings = bindings
        }
    }

    /// More shapes than this means the queries are generated; the cache then starts over.
    static let capacity = 512
    private var entries: [Key: Entry] = [:]
    /// The shape found or compiled last: a loop running one shape finds it without hashing its key.
    /// A reference, so that checking it copies no key.
    private final class Last {
        let key: Key
        let entry: Entry

        init(key: Key, entry: Entry) {
            self.key = key
            self.entry = entry
        }
    }

    private var last: Last?

    subscript(key: Key) -> Entry? {
        get {
            let entry = entries[key]
            if let entry { last = Last(key: key, entry: entry) }
            return entry
        }
        set {
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = newValue
            last = newValue.map { Last(key: key, entry: $0) }
        }
    }

    /// The last shape's entry and the request's constants (in slot order) when the request has that
    /// shape; `nil` otherwise.
    func lastEntry(
        for request: FetchRequest, shape: FetchSQLBuilder.Shape, storeIdentifier: String
    ) -> (Entry, [StoredValue])? {
        guard let last else { return nil }
        // Each part of the key is read in place: copying the whole key (its strings, arrays and
        // predicate) and destroying the copy cost more than the comparisons, on every count and fetch.
        guard last.key.entityName == request.entityName, last.key.shape == shape,
            last.key.includesSubentities == request.includesSubentities,
            last.key.hasWindow == request.hasWindow,
            last.key.sortDescriptors == request.sortDescriptors
        else { return nil }
        var matcher = PredicateShapeMatcher(classes: last.key.classes, storeIdentifier: storeIdentifier)
        switch (request.predicate, last.key.predicate) {
        case (nil, nil):
            break
        case let (predicate?, template?):
            guard matcher.matches(predicate, template: template) else { return nil }
        default:
            return nil
        }
        guard matcher.isCacheable, matcher.isComplete else { return nil }
        return (last.entry, matcher.constants)
    }

    package var count: Int { entries.count }

    package init() {}

    /// The compilation of a request's shape in `dialect` (from the cache when this shape ran before) and
    /// the request's constants, in slot order. For PostgreSQL the SQL is the statement's text (`$1::text`
    /// placeholders typed by the constants' kinds, which are part of the shape).
    package func compiled(
        _ request: FetchRequest, shape: FetchSQLBuilder.Shape, model: ManagedObjectModel, schema: StoreSchema,
        storeIdentifier: String, dialect: SQLDialect
    ) throws -> (Entry, [StoredValue]) {
        if let found = lastEntry(for: request, shape: shape, storeIdentifier: storeIdentifier) { return found }
        var parameterizer = PredicateParameterizer(storeIdentifier: storeIdentifier, dialect: dialect)
        let predicate = request.predicate.map { parameterizer.rewrite($0) }
        let key = Key(
            entityName: request.entityName, shape: shape, includesSubentities: request.includesSubentities,
            hasWindow: request.hasWindow, sortDescriptors: request.sortDescriptors, predicate: predicate,
            classes: parameterizer.classes)
        if parameterizer.isCacheable, let entry = self[key] {
            return (entry, parameterizer.constants)
        }
        var rewritten = request
        rewritten.predicate = predicate
        let builder = FetchSQLBuilder(model: model, schema: schema, storeIdentifier: storeIdentifier, dialect: dialect)
        let fragment: SQLFragment
        do {
            fragment = try builder.build(rewritten, shape: shape, slotValues: parameterizer.constants)
        } catch {
            // The message quotes the predicate: compile it once more with its constants in place, so
            // that the quote shows them as written rather than as the slots that stand for them.
            _ = try builder.build(request, shape: shape)
            throw error
        }
        let entry = Entry(
            sql: dialect.statementText(fragment, slotValues: parameterizer.constants), bindings: fragment.bindings)
        if parameterizer.isCacheable { self[key] = entry }
        return (entry, parameterizer.constants)
    }
}
