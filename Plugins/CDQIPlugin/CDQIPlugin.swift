import Foundation
import PackagePlugin

/// Runs `cdqi` over every `.xcdatamodeld` bundle of a target, so the query proxies, the entity classes
/// and the model are generated at build time and never committed.
///
/// Each bundle becomes one `<Model>+CDQI.swift` in the plugin's work folder (a build plugin must name
/// its outputs before it runs, so generation is always merged). It holds the proxies, the classes of
/// the entities whose code generation is Class or Category (or of every entity, with
/// `"objects": "all"`), and always the model, built in code: on Linux a bundle is no resource, and a
/// store cannot be opened without it.
///
/// A bundle of several versions gives a model that carries the earlier versions too, so that opening
/// a store one of them wrote migrates it with no bundle at run time (`"versions": "current"` in
/// `cdqi.json` carries the current version alone).
///
/// Build plugins take no arguments: options come from `cdqi.json` beside the bundle (`objects`
/// `"all"`/`"codegen"`, `public`, `suffix`, `exclude`, `indent`, `versions` `"all"`/`"current"`; see
/// `cdqi generate --help`). The
/// target's own Swift files are passed as `--classes-in`, so an entity with Manual/None code generation
/// whose class the target does not declare gets a warning instead of code that cannot compile. The
/// bundle's `contents` files, `.xccurrentversion`, `cdqi.json` and the target's Swift files are inputs:
/// changing any of them re-runs generation.
///
/// A target that depends on the `Query` product (lightyear/Query's API) and not on
/// `CoreDataQueryInterface` gets lightyear's `Queryable` conformances instead of the proxies
/// (`cdqi --lightyear`), in `<Model>+Queryable.swift`; one that depends on the `Sworm` product and not
/// on `CoreDataQueryInterface` gets Sworm's structs (`cdqi --sworm`) in `<Model>+Sworm.swift`, with the
/// model in `<Model>+SwormModel.swift`.
@main
struct CDQIPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SwiftSourceModuleTarget else { return [] }
        let tool = try context.tool(named: "cdqi")
        let output = context.pluginWorkDirectoryURL.appending(path: "GeneratedSources")
        let swiftSources = target.sourceFiles.filter { $0.url.pathExtension == "swift" }.map(\.url)
        let style = Self.style(of: target)
        return target.sourceFiles
            .filter { $0.url.pathExtension == "xcdatamodeld" }
            .map { file in
                let bundle = file.url
                let name = bundle.deletingPathExtension().lastPathComponent
                var arguments =
                    [
                        bundle.path, "--merged", "--force", "--out", output.path,
                        "--classes-in", target.directoryURL.path,
                    ] + style.arguments
                var inputs = [bundle] + Self.modelFiles(in: bundle) + swiftSources + [tool.url]
                let config = bundle.deletingLastPathComponent().appending(path: "cdqi.json")
                if FileManager.default.fileExists(atPath: config.path) {
                    arguments += ["--config", config.path]
                    inputs.append(config)
                }
                return .buildCommand(
                    displayName: "Generating \(style.what) for \(name)",
                    executable: tool.url,
                    arguments: arguments,
                    inputFiles: inputs,
                    outputFiles: style.outputs(name).map { output.appending(path: $0) }
                )
            }
    }

    /// What the plugin generates for a target, by the query API it depends on.
    private enum Style {
        case proxies, lightyear, sworm

        var arguments: [String] {
            switch self {
            case .proxies: []
            case .lightyear: ["--lightyear"]
            case .sworm: ["--sworm"]
            }
        }

        var what: String {
            switch self {
            case .proxies: "CDQI proxies, classes and model"
            case .lightyear: "Queryable conformances, classes and model"
            case .sworm: "Sworm structs and model"
            }
        }

        func outputs(_ model: String) -> [String] {
            switch self {
            case .proxies: ["\(model)+CDQI.swift"]
            case .lightyear: ["\(model)+Queryable.swift"]
            case .sworm: ["\(model)+Sworm.swift", "\(model)+SwormModel.swift"]
            }
        }
    }

    /// lightyear/Query's API when the target depends on the `Query` product, Sworm's when on `Sworm`, and
    /// neither on `CoreDataQueryInterface` (whose `Query` would clash with theirs); otherwise the proxies.
    private static func style(of target: SwiftSourceModuleTarget) -> Style {
        var products: Set<String> = []
        for dependency in target.dependencies {
            if case .product(let product) = dependency { products.insert(product.name) }
        }
        if products.contains("CoreDataQueryInterface") { return .proxies }
        if products.contains("Query") { return .lightyear }
        if products.contains("Sworm") { return .sworm }
        return .proxies
    }

    /// The files inside a bundle whose changes must re-run generation.
    private static func modelFiles(in bundle: URL) -> [URL] {
        let manager = FileManager.default
        var files: [URL] = []
        let current = bundle.appending(path: ".xccurrentversion")
        if manager.fileExists(atPath: current.path) { files.append(current) }
        let versions = (try? manager.contentsOfDirectory(atPath: bundle.path)) ?? []
        for version in versions.sorted() where version.hasSuffix(".xcdatamodel") {
            let contents = bundle.appending(path: version).appending(path: "contents")
            if manager.fileExists(atPath: contents.path) { files.append(contents) }
        }
        return files
    }
}
