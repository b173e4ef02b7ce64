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
            <Model>Model.swift is always written: it builds the model in code and registers \
            the classes: 'try PersistentContainer(model: <Model>Model.self, url: storeURL)'. \
            For a bundle of several versions it also carries the versions before the one \
            generated (--versions all, the default), so that opening a store an earlier \
            version wrote migrates it with no bundle at run time; --versions current \
            carries the generated version alone.

            With --lightyear, no proxies are written: each entity class gets lightyear/Query's \
            Queryable conformance in <Class>+Queryable.swift (with --merged, everything goes \
            into <Model>+Queryable.swift); entity classes and the model are written as above.

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

    @Option(
        name: [.customShort("i"), .customLong("in")],
        help: ArgumentHelp("The folder to search for the model. Default: the current folder.", valueName: "folder"))
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

    @Option(
        name: .customLong("model-version"),
        help: ArgumentHelp("The model version to read (\"Company 2\"). Default: the bundle's current version.", valueName: "name"))
    var modelVersion: String?

    @Option(
        name: .customLong("versions"),
        help: ArgumentHelp(
            "Which versions of a bundle the generated model carries: 'all' (the default) carries every version up to the one generated, so that opening a store an earlier version wrote migrates it with no bundle at run time; 'current' carries that version alone. A bundle of one version carries it alone either way.",
            valueName: "all|current"))
    var versions: String?

    @Flag(name: .customLong("dry-run"), help: "Print what would be written, and write nothing.")
    var dryRun = false

    @Flag(name: .customLong("objects"), help: "Write an entity class for every entity, whatever its code generation setting.")
    var objects = false

    @Flag(name: .customLong("sworm"), help: "Write Sworm structs (<Model>+Sworm.swift) instead of query proxies.")
    var sworm = false

    @Flag(name: .customLong("lightyear"), help: "Write lightyear/Query's Queryable conformances (<Class>+Queryable.swift) instead of the proxies.")
    var lightyear = false

    @Option(
        name: .customLong("classes-in"),
        help: ArgumentHelp(
            "A folder of Swift sources (the target's): an entity with Manual/None code generation whose class is not declared there gets no Entity conformance, and a warning. The build plugin passes its target's folder.",
            valueName: "folder"))
    var classesIn: String?

    @Option(
        name: .customLong("config"),
        help: ArgumentHelp(
            "A JSON file of options (objects, public, suffix, exclude, merged, indent, style), as the build plugin reads from cdqi.json beside a model. Options given here win.",
            valueName: "file"))
    var config: String?

    /// The longest file name most file systems take (NAME_MAX), in bytes.
    static let maximumFileNameBytes = 255

    func validate() throws {
        guard GeneratorOptions.isValidSuffix(suffix) else {
            throw ValidationError("--suffix '\(suffix)' must be one or more letters, digits or underscores.")
        }
        guard (1...16).contains(indent) else {
            throw ValidationError("--indent \(indent) must be between 1 and 16.")
        }
        if let versions, !["all", "current"].contains(versions) {
            throw ValidationError("--versions '\(versions)' must be 'all' or 'current'.")
        }
    }

    func run() throws {
        var command = self
        if let config {
            do {
                command.apply(try GenerateConfig.read(path: config))
            } catch {
                StandardError.print(error.description)
                throw ExitCode.validationFailure
            }
            try command.validate()
        }
        try command.generate()
    }

    /// Takes the file's options where the command line left the defaults.
    private mutating func apply(_ file: GenerateConfig) {
        objects = objects || (file.objectsForAll ?? false)
        isPublic = isPublic || (file.isPublic ?? false)
        merged = merged || (file.merged ?? false)
        if suffix == "Attribute", let fileSuffix = file.suffix { suffix = fileSuffix }
        if indent == 4, let fileIndent = file.indent { indent = fileIndent }
        exclude += file.exclude.filter { !exclude.contains($0) }
        lightyear = lightyear || file.style == "lightyear"
        sworm = sworm || file.style == "sworm"
        if versions == nil { versions = file.versions }
    }

    private func generate() throws {
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
        if loaded.model.entities.isEmpty {
            StandardError.print(
                "\(loaded.contentsURL.path): warning: the model has no entities, so no proxies or classes "
                    + "are written (only \(loaded.modelName)'s model type); add entities, or check that this is the model you meant")
        }

        let earlierVersions: [ManagedObjectModel]
        do {
            earlierVersions = try versions == "current" ? [] : Self.earlierVersions(of: loaded, inBundle: modelURL)
        } catch {
            error.diagnostics.forEach { StandardError.print($0.description) }
            StandardError.print(
                "cdqi: error: an earlier version of \(modelURL.lastPathComponent) cannot be read, so the generated model "
                    + "cannot carry it; fix it, or pass --versions current (\"versions\": \"current\" in cdqi.json) to carry "
                    + "only the version generated; nothing was written")
            throw ExitCode.failure
        }

        let entityNames = Set(loaded.model.entities.map(\.name))
        let unknown = (write + exclude).filter { !entityNames.contains($0) }
        if !unknown.isEmpty {
            let known = loaded.model.entities.map(\.name).joined(separator: ", ")
            for name in Set(unknown).sorted() {
                StandardError.print(
                    "\(loaded.contentsURL.path): error: no entity named '\(name)' in the "
                        + "\(loaded.modelName) model (entities: \(known.isEmpty ? "none" : known))")
            }
            throw ExitCode.validationFailure
        }

        let options = GeneratorOptions(
            accessLevel: isPublic ? .public : .internal, suffix: suffix, indentWidth: indent,
            objectClasses: objects ? .all : .asModelSays,
            declaredClassNames: classesIn.map { DeclaredClassScanner.classNames(under: URL(fileURLWithPath: $0)) })
        let folder = out.map { URL(fileURLWithPath: $0) } ?? modelURL.deletingLastPathComponent()
        if sworm {
            let (file, diagnostics) = SwormStructWriter(options: options)
                .generate(loaded.model, modelName: loaded.modelName)
            diagnostics.forEach { StandardError.print($0.description) }
            // The model, built in code, beside the structs: on Linux the store is opened with it. Its file
            // name is fixed so that the build plugin can name its outputs.
            let model = ProxyGenerator(options: options)
                .generate(loaded.model, modelName: loaded.modelName, earlierVersions: earlierVersions)
                .modelFile(named: "\(loaded.modelName)+SwormModel.swift")
            let errors = OutputWriter(folder: folder, force: force, dryRun: dryRun).write([file] + (model.map { [$0] } ?? []))
            errors.forEach { StandardError.print($0) }
            if !errors.isEmpty { throw ExitCode.failure }
            return
        }
        let generation = ProxyGenerator(options: options)
            .generate(loaded.model, modelName: loaded.modelName, earlierVersions: earlierVersions)
        // Without proxies, their warnings do not apply.
        let diagnostics =
            lightyear
            ? generation.classDiagnostics + generation.lightyearConformances.diagnostics : generation.diagnostics
        diagnostics.forEach { StandardError.print($0.description) }

        // nil selects everything, including composites no entity uses.
        let selection =
            write.isEmpty && exclude.isEmpty
            ? nil : (write.isEmpty ? entityNames : Set(write)).subtracting(exclude)
        let files =
            switch (lightyear, merged) {
            case (true, true): [generation.lightyearMergedFile(entities: selection)]
            case (true, false): generation.lightyearFiles(entities: selection)
            case (false, true): [generation.mergedFile(entities: selection)]
            case (false, false): generation.files(entities: selection)
            }
        // Conformances refer to no proxy.
        for missing in lightyear ? [] : generation.proxiesReferenced(outside: selection) {
            // In separate-file mode a proxy left out of this run may exist from an earlier one.
            if !merged, FileManager.default.fileExists(atPath: folder.appendingPathComponent(missing.fileName).path) {
                continue
            }
            StandardError.print(
                "\(loaded.contentsURL.path): note: the proxies written refer to '\(missing.proxyName)' "
                    + "(entity '\(missing.entityName)'), which this run does not write; declare it elsewhere in the module "
                    + "or stop excluding '\(missing.entityName)'")
        }
        // Checked before writing anything: a name too long for the file system must not fail halfway.
        let tooLong = files.filter { $0.name.utf8.count > Self.maximumFileNameBytes }
        if !tooLong.isEmpty {
            for file in tooLong {
                StandardError.print(
                    "cdqi: error: the file name '\(file.name.prefix(60))…' is \(file.name.utf8.count) bytes, "
                        + "over the \(Self.maximumFileNameBytes)-byte limit of file names; shorten the entity name, or exclude it "
                        + "with --exclude; nothing was written")
            }
            throw ExitCode.failure
        }
        let errors = OutputWriter(folder: folder, force: force, dryRun: dryRun).write(files)
        errors.forEach { StandardError.print($0) }
        if !errors.isEmpty { throw ExitCode.failure }
    }

    /// The versions of the bundle at `url` before the one `loaded` is, oldest first; empty when `url` is
    /// not a bundle or holds one version. Their warnings are not repeated: only the generated version's.
    static func earlierVersions(of loaded: LoadedModel, inBundle url: URL) throws(ModelError) -> [ManagedObjectModel] {
        guard url.pathExtension == "xcdatamodeld", try ModelLoader().versions(ofBundle: url).names.count > 1 else { return [] }
        let bundle = try LoadedBundle(url: url)
        guard let index = bundle.versions.firstIndex(where: { $0.model.versionName == loaded.model.versionName }) else { return [] }
        return bundle.versions[..<index].map(\.model)
    }
}
