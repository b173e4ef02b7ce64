import CDQITestSupport
import Foundation
import Testing

/// The README's "Adding it to a package" manifest, taken from the README's text as it stands, works for
/// a new user: written verbatim into a scratch package beside a folder named `cdqi` (the path form), it
/// builds with the build plugin over a model whose entities have Xcode's Manual/None code generation
/// (with `"objects": "all"` in `cdqi.json`) and runs a query; with its URL line in place of the path line
/// (pointing at a bare clone named `cdqi.git`), SwiftPM accepts every `package:` name. A second target
/// added to the same package uses the plugin's Sworm mode and runs Sworm's API. Slow (a full build
/// of this package in a scratch folder), so it runs only when `CDQI_E2E=1`.
@Suite(
    .enabled(if: ProcessInfo.processInfo.environment["CDQI_E2E"] == "1", "set CDQI_E2E=1 to build a package from the README's manifest (slow)")
)
struct ReadmeQuickStartTests {
    /// The Swift code block that follows the "## Adding it to a package" heading.
    static func readmeManifest() throws -> String {
        let readme = try String(contentsOf: CommandRunner.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Adding it to a package\n").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```swift\n").dropFirst().first)
        return try #require(block.components(separatedBy: "\n```").first) + "\n"
    }

    @Test func theManifestNamesThePackageAsSwiftPMDoes() throws {
        let manifest = try Self.readmeManifest()
        #expect(manifest.contains(".package(path: \"../cdqi\")"))
        #expect(manifest.contains("platforms: [.macOS(.v15)]"))
        // Every product names the identity of both dependency lines.
        #expect(!manifest.contains("package: \"CoreDataQueryInterface"))
        #expect(manifest.components(separatedBy: "package: \"cdqi\"").count - 1 == 4)
    }

    @Test(.timeLimit(.minutes(20)))
    func thePathFormBuildsWithThePluginOverAManualModelAndRuns() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent("cdqi"), withDestinationURL: CommandRunner.packageRoot)
        let package = folder.url.appendingPathComponent("MyServer")
        let sources = package.appendingPathComponent("Sources/MyServer")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try Self.readmeManifest().write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        // Developers: three entities, none with a code generation setting (Manual/None).
        try FileManager.default.copyItem(
            at: CommandRunner.packageRoot.appendingPathComponent("Fixtures/Developers.xcdatamodeld"),
            to: sources.appendingPathComponent("Developers.xcdatamodeld"))
        try #"{"objects": "all"}"#.write(to: sources.appendingPathComponent("cdqi.json"), atomically: true, encoding: .utf8)
        try """
        import CDQIStore
        import CoreDataQueryInterface

        let container = try PersistentContainer(model: DevelopersModel.self, url: nil)
        let context = container.viewContext
        let swift = try context.insert(Language.self)
        swift.name = "Swift"
        let rust = try context.insert(Language.self)
        rust.name = "Rust"
        for (first, last, languages) in [("Ann", "Lee", [swift]), ("Bob", "Ray", [rust]), ("Cy", "Ode", [swift, rust])] {
            let developer = try context.insert(Developer.self)
            developer.firstName = first
            developer.lastName = last
            developer.addToLanguages(Set(languages))
        }
        try context.save()
        let names = try context.from(Developer.self)
            .filter { any($0.languages.name == "Swift") }
            .order { $0.lastName }
            .array { $0.firstName }
        print(names.compactMap { $0 }.joined(separator: ", "))

        """.write(to: sources.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)

        let build = try Self.run(["swift", "build"], in: package)
        #expect(build.status == 0, "the README's manifest did not build:\n\(build.output.suffix(4000))")
        let run = try Self.run(["swift", "run", "--skip-build", "MyServer"], in: package)
        #expect(run.status == 0, "\(run.output.suffix(2000))")
        // Ann (Lee) and Cy (Ode) know Swift; ordered by last name.
        #expect(run.output.split(separator: "\n").last == "Ann, Cy")

        // The plugin's Sworm mode (`"style": "sworm"` in cdqi.json): a second target of the same package,
        // built on what is already built, gets Sworm structs and the model, and runs Sworm's API on them.
        let swormSources = package.appendingPathComponent("Sources/MySwormTool")
        try FileManager.default.createDirectory(at: swormSources, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: CommandRunner.packageRoot.appendingPathComponent("Fixtures/Developers.xcdatamodeld"),
            to: swormSources.appendingPathComponent("Developers.xcdatamodeld"))
        try #"{"style": "sworm"}"#.write(to: swormSources.appendingPathComponent("cdqi.json"), atomically: true, encoding: .utf8)
        try """
        import CDQIStore
        import Sworm

        let store = try CDQIStore.PersistentContainer(model: DevelopersModel.self, url: nil)
        let db = Sworm.PersistentContainer(managedObjectContext: { store.newContext() })
        try db.perform { ctx in
            let swift = try ctx.insert(Language(name: "Swift"))
            let rust = try ctx.insert(Language(name: "Rust"))
            for (first, last, languages) in [("Ann", "Lee", [swift]), ("Bob", "Ray", [rust]), ("Cy", "Ode", [swift, rust])] {
                let developer = try ctx.insert(Developer(firstName: first, lastName: last))
                for language in languages { developer.languages.add(language) }
            }
        }
        let names = try db.perform { ctx in
            try ctx.fetch(Developer.all.where("ANY languages.name == 'Swift'").sort(\\.lastName)).map { try $0.decode().firstName }
        }
        print(names.joined(separator: ", "))

        """.write(to: swormSources.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        let swormTarget = """
                    .executableTarget(
                        name: "MySwormTool",
                        dependencies: [
                            .product(name: "Sworm", package: "cdqi"),
                            .product(name: "CDQIStore", package: "cdqi"),
                            .product(name: "CDQIModel", package: "cdqi"),
                        ],
                        plugins: [.plugin(name: "CDQIPlugin", package: "cdqi")]
                    ),
                ]
            )

            """
        let manifest = try Self.readmeManifest()
        let end = try #require(manifest.range(of: "    ]\n)\n", options: .backwards))
        try (manifest[..<end.lowerBound] + swormTarget).write(
            to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let swormBuild = try Self.run(["swift", "build", "--product", "MySwormTool"], in: package)
        #expect(swormBuild.status == 0, "the Sworm-mode target did not build:\n\(swormBuild.output.suffix(4000))")
        let swormRun = try Self.run(["swift", "run", "--skip-build", "MySwormTool"], in: package)
        #expect(swormRun.status == 0, "\(swormRun.output.suffix(2000))")
        #expect(swormRun.output.split(separator: "\n").last == "Ann, Cy")
    }

    @Test(.timeLimit(.minutes(10)))
    func theURLFormResolvesWithTheSamePackageNames() throws {
        let folder = try TemporaryFolder()
        let bare = folder.url.appendingPathComponent("cdqi.git")
        let clone = try Self.run(["git", "clone", "--quiet", "--bare", CommandRunner.packageRoot.path, bare.path], in: folder.url)
        try #require(clone.status == 0, "\(clone.output)")
        let package = folder.url.appendingPathComponent("MyServer")
        try FileManager.default.createDirectory(
            at: package.appendingPathComponent("Sources/MyServer"), withIntermediateDirectories: true)
        try "print(1)\n".write(to: package.appendingPathComponent("Sources/MyServer/main.swift"), atomically: true, encoding: .utf8)
        // The README's URL line in place of its path line, pointing at the bare clone.
        let manifest = try Self.readmeManifest()
        let lines = manifest.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            if line.contains(".package(path:") { return "// " + line }
            if line.contains("// .package(url:") {
                let indent = line.prefix { $0 == " " }
                return indent + ".package(url: \"\(bare.absoluteString)\", branch: \"main\"),"
            }
            return String(line)
        }
        let urlManifest = lines.joined(separator: "\n")
        #expect(urlManifest.contains(".package(url: \"file://"))
        try urlManifest.write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let describe = try Self.run(["swift", "package", "describe"], in: package)
        #expect(describe.status == 0, "\(describe.output.suffix(3000))")
        #expect(describe.output.contains("CDQIPlugin"))
    }

    private static func run(_ arguments: [String], in directory: URL) throws -> (status: Int32, output: String) {
        // A log name of its own per command: the scratch package's folder is also the command's folder.
        try ProcessRunner.run(arguments, in: directory, logName: "command-\(UUID().uuidString).log")
    }
}
