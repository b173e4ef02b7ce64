import ArgumentParser
import CDQIGenerator
import CDQIModel
import Foundation

/// `cdqi generate`: writes the query proxies of one model.
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Writes the query proxies of a Core Data model.",
        discussion: """
            Finds <model>.xcdatamodeld (or <model>.xcdatamodel) in the --in folder or below \
            and writes one <Entity><Suffix>.swift file per entity beside it, or into --out. \
            Each file declares the entity's proxy class and makes the entity's class \
            conform to Entity. Files that exist and differ are kept unless --force is given.

            Entities whose code generation is 'class' (or every entity, with --objects) also \
            get a ManagedObject subclass with typed properties in <Class>.swift; 'category' \
            entities get an extension with the properties in <Class>+Properties.swift. \
            Then <Model>Model.swift builds the model in code and registers the classes: \
            'try PersistentContainer(model: <Model>Model.self, url: storeURL)'.

            With --sworm, writes <Model>+Sworm.swift instead: one plain struct per entity \
            conforming to Sworm's ManagedObjectConvertible, with its attribute and relation lists.

            Warnings and errors go to standard error as 'path:line: warning: message'. \
            Exit status: 0 on success, 64 on bad usage, 1 when the model cannot be found, \
            read or written.
            """
    )

    @Argument(help: "The model's name (Company finds Company.xcdatamodeld), or the path of a model.")
    var model: String

    @Flag(name: .shortAndLong, help: "Overwrite files that exist and differ.")
    var force = false

    @Option(name: [.customShort("i"), .customLong("in")], help: ArgumentHelp("The folder to search for the model. Default: the current folder.", valueName: "folder"))
    var input: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("The folder to write to. Default: the folder that holds the model.", valueName: "folder"))
    var out: String?

    @Flag(name: .shortAndLong, help: "Write all proxies into one file named <Model>+CDQI.swift.")
    var merged = false

    @Option(name: [.customShort("x"), .long], help: ArgumentHelp("Do not write this entity's proxy (repeatable).", valueName: "entity"))
    var exclude: [String] = []

    @Option(name: [.customShort("w"), .long], help: ArgumentHelp("Write only this entity's proxy (repeatable). Default: every entity.", valueName: "entity"))
    var write: [String] = []

    @Flag(name: [.customShort("p"), .customLong("public")], help: "Make the proxies and conformances public.")
    var isPublic = false

    @Option(name: .shortAndLong, help: ArgumentHelp("The suffix of proxy names: letters, digits or underscores.", valueName: "suffix"))
    var suffix = "Attribute"

    @Option(name: [.customShort("n"), .long], help: ArgumentHelp("The number of spaces per indentation level, 1 to 16.", valueName: "spaces"))
    var indent = 4

    @Option(name: .customLong("model-version"), help: ArgumentHelp("The model version to read (\"Company 2\"). Default: the bundle's current version.", valueName: "name"))
    var modelVersion: String?

    @Flag(name: .customLong("dry-run"), help: "Print what would be written, and write nothing.")
    var dryRun = false

    @Flag(name: .customLong("objects"), help: "Write an entity class for every entity, whatever its code generation setting.")
    var objects = false

    @Flag(name: .customLong("sworm"), help: "Write Sworm structs (<Model>+Sworm.swift) instead of query proxies.")
    var sworm = false

    func validate() throws {
        guard GeneratorOptions.isValidSuffix(suffix) else {
            throw ValidationError("--suffix '\(suffix)' must be one or more letters, digits or underscores.")
        }
        guard (1...16).contains(indent) else {
            throw ValidationError("--indent \(indent) must be between 1 and 16.")
        }
    }

    func run() throws {
        let root = URL(fileURLWithPath: input ?? FileManager.default.currentDirectoryPath)
        let modelURL: URL
        do {
            modelURL = try ModelLocator(root: root).locate(model)
        } catch {
            StandardError.print(error.message)
            throw ExitCode.failure
        }

        let loaded: LoadedModel
        do {
            loaded = try ModelLoader().load(url: modelURL, version: modelVersion)
        } catch {
            error.diagnostics.forEach { StandardError.print($0.description) }
            throw ExitCode.failure
        }
        loaded.warnings.forEach { StandardError.print($0.description) }

        let entityNames = Set(loaded.model.entities.map(\.name))
        let unknown = (write + exclude).filter { !entityNames.contains($0) }
        if !unknown.isEmpty {
            let known = loaded.model.entities.map(\.name).joined(separator: ", ")
            for name in Set(unknown).sorted() {
                StandardError.print("\(loaded.contentsURL.path): error: no entity named '\(name)' in the "
                    + "\(loaded.modelName) model (entities: \(known.isEmpty ? "none" : known))")
            }
            throw ExitCode.validationFailure
        }

        let options = GeneratorOptions(
            accessLevel: isPublic ? .public : .internal, suffix: suffix, indentWidth: indent,
            objectClasses: objects ? .all : .asModelSays)
        let folder = out.map { URL(fileURLWithPath: $0) } ?? modelURL.deletingLastPathComponent()
        if sworm {
            let (file, diagnostics) = SwormStructWriter(options: options)
                .generate(loaded.model, modelName: loaded.modelName)
            diagnostics.forEach { StandardError.print($0.description) }
            let errors = OutputWriter(folder: folder, force: force, dryRun: dryRun).write([file])
            errors.forEach { StandardError.print($0) }
            if !errors.isEmpty { throw ExitCode.failure }
            return
        }
        let generation = ProxyGenerator(options: options).generate(loaded.model, modelName: loaded.modelName)
        generation.diagnostics.forEach { StandardError.print($0.description) }

        // nil selects everything, including composites no entity uses.
        let selection = write.isEmpty && exclude.isEmpty
            ? nil : (write.isEmpty ? entityNames : Set(write)).subtracting(exclude)
        let files = merged ? [generation.mergedFile(entities: selection)] : generation.files(entities: selection)
        for missing in generation.proxiesReferenced(outside: selection) {
            // In separate-file mode a proxy left out of this run may exist from an earlier one.
            if !merged, FileManager.default.fileExists(atPath: folder.appendingPathComponent(missing.fileName).path) {
                continue
            }
            StandardError.print("\(loaded.contentsURL.path): note: the proxies written refer to '\(missing.proxyName)' "
                + "(entity '\(missing.entityName)'), which this run does not write; declare it elsewhere in the module "
                + "or stop excluding '\(missing.entityName)'")
        }
        let errors = OutputWriter(folder: folder, force: force, dryRun: dryRun).write(files)
        errors.forEach { StandardError.print($0) }
        if !errors.isEmpty { throw ExitCode.failure }
    }
}
