import ArgumentParser
import CDQIInterchange
import Foundation

extension ResultFormat: ExpressibleByArgument {}

/// `cdqi query`: prints the objects of an entity, or selected and grouped columns, from a store.
struct Query: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Prints objects or columns of a Core Data store.",
        usage: "cdqi query [<options>] [<model>] <store> --entity <entity>",
        discussion: """
            Without --select and --group-by, prints one row per object: its _id (Entity/pk), its \
            stored attributes and its to-one relationships. --select takes key paths \
            (department.name) and aggregates (count:(salary), sum:, min:, max:, average:); with \
            --group-by, selected key paths must be grouped ones. The store is a SQLite file, or a \
            PostgreSQL schema given as postgres://user:password@host:port/database?schema=name. \
            The store must exist: a query never creates one. Without a model, the store is read with the model it carries \
            (Z_MODELCACHE, kept by Apple's Core Data); a store without one is refused.

            Exit status: 0 on success, 64 on bad usage (a predicate that does not parse, an \
            unknown entity or key), 1 when the model or the store cannot be read.
            """
    )

    @OptionGroup var paths: ModelAndStoreArguments

    @Option(help: ArgumentHelp("The entity to query (its sub-entities' objects included).", valueName: "entity"))
    var entity: String

    // .unconditional: a predicate may start with '-' ("-salary > 1"), which would otherwise be read as an option.
    @Option(
        name: .customLong("where"), parsing: .unconditional,
        help: ArgumentHelp("A predicate in NSPredicate format (\"salary > 50000 AND lastName BEGINSWITH 'S'\").", valueName: "format"))
    var predicate: String?

    @Option(help: ArgumentHelp("A sort key, KEY or KEY:desc (repeatable; the first is the main key).", valueName: "key[:desc]"))
    var order: [String] = []

    // .unconditional: "--limit -1" is a value (refused by validate() with a message), not an unknown option.
    @Option(parsing: .unconditional, help: ArgumentHelp("The most rows to print.", valueName: "n"))
    var limit: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("The number of rows to skip.", valueName: "n"))
    var offset: Int?

    @Option(help: ArgumentHelp("A column: a key path or an aggregate such as max:(salary) (repeatable).", valueName: "keypath"))
    var select: [String] = []

    @Option(name: .customLong("group-by"), help: ArgumentHelp("A key path to group rows by (repeatable).", valueName: "keypath"))
    var groupBy: [String] = []

    @Flag(help: "Print the number of rows (objects, or groups when grouping) instead of the rows.")
    var count = false

    @Option(help: ArgumentHelp("The output format: table, json or csv.", valueName: "format"))
    var format: ResultFormat = .table

    @Option(
        name: .customLong("model-version"),
        help: ArgumentHelp(
            "The version of the model bundle to use. Default: the version whose entity version hashes match the store's, else the bundle's current version.",
            valueName: "name"))
    var modelVersion: String?

    @Flag(
        help:
            "Print the SQL the query runs, its bound values, the database's query plan and warnings (an attribute filtered or sorted without an index, with the fetch index to add), instead of the rows."
    )
    var explain = false

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit \(limit) must be 1 or more.") }
        if let offset, offset < 0 { throw ValidationError("--offset \(offset) must be 0 or more.") }
        if modelVersion != nil, paths.model == nil {
            throw ValidationError("--model-version needs a model bundle: cdqi query MODEL STORE --entity E --model-version NAME.")
        }
    }

    func run() throws {
        let location = try StoreCommandSupport.location(paths.store)
        let loadedModel = try StoreCommandSupport.loadModel(paths.model, version: modelVersion, forStore: paths.store)
        var query = StoreQuery(entityName: entity)
        query.predicate = predicate
        query.order = order
        query.limit = limit
        query.offset = offset
        query.select = select
        query.groupBy = groupBy
        do {
            // The predicate language decides comparisons of different kinds (always false), silently:
            // say so, naming the key and both kinds.
            for comparison in try query.mixedKindComparisons(model: loadedModel) {
                StandardError.print("cdqi: warning: \(comparison)")
            }
            if explain {
                StoreCommandSupport.write(try query.explain(model: loadedModel, store: location).description + "\n")
            } else if count {
                StoreCommandSupport.write("\(try query.count(model: loadedModel, store: location))\n")
            } else {
                let table = try query.run(model: loadedModel, store: location)
                StoreCommandSupport.write(format.render(table))
                if table.rows.isEmpty {
                    // A header alone reads like a failure; JSON and CSV stay machine-readable.
                    if format == .table { StoreCommandSupport.write("(0 rows)\n") } else { StandardError.print("cdqi: 0 rows") }
                }
            }
        } catch {
            let message = StoreCommandSupport.withVersionHint(error.description, model: paths.model, loaded: loadedModel, store: paths.store)
            throw StoreCommandSupport.fail(message, usage: error.isUsageError)
        }
    }
}
