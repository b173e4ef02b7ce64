import Foundation
import PackagePlugin

/// Runs `cdqi` over every `.xcdatamodeld` bundle of a target, so the query proxies are generated at
/// build time and never committed.
///
/// Each bundle becomes one `<Model>+CDQI.swift` in the plugin's work folder. The bundle's `contents`
/// files and `.xccurrentversion` are declared as inputs, so editing the model re-runs generation.
///
/// A target that depends on the `Query` product (lightyear/Query's API) and not on
/// `CoreDataQueryInterface` gets lightyear's `Queryable` conformances instead of the proxies
/// (`cdqi --lightyear`), in `<Model>+Queryable.swift`.
@main
struct CDQIPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SwiftSourceModuleTarget else { return [] }
        let tool = try context.tool(named: "cdqi")
        let output = context.pluginWorkDirectoryURL.appending(path: "GeneratedSources")
        let lightyear = Self.usesLightyear(target)
        return target.sourceFiles
            .filter { $0.url.pathExtension == "xcdatamodeld" }
            .map { file in
                let bundle = file.url
                let name = bundle.deletingPathExtension().lastPathComponent
                return .buildCommand(
                    displayName: lightyear ? "Generating Queryable conformances for \(name)" : "Generating CDQI proxies for \(name)",
                    executable: tool.url,
                    arguments: [bundle.path, "--merged", "--force", "--out", output.path] + (lightyear ? ["--lightyear"] : []),
                    inputFiles: [bundle] + Self.modelFiles(in: bundle) + [tool.url],
                    outputFiles: [output.appending(path: lightyear ? "\(name)+Queryable.swift" : "\(name)+CDQI.swift")]
                )
            }
    }

    /// Whether the target uses lightyear/Query's API: it depends on the `Query` product and not on
    /// `CoreDataQueryInterface` (whose `Query` would clash with lightyear's).
    private static func usesLightyear(_ target: SwiftSourceModuleTarget) -> Bool {
        var products: Set<String> = []
        for dependency in target.dependencies {
            if case .product(let product) = dependency { products.insert(product.name) }
        }
        return products.contains("Query") && !products.contains("CoreDataQueryInterface")
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
