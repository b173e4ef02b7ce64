import CDQIModel
import Foundation
import Testing

@testable import CDQIGenerator

/// Generates the proxies of every corpus model the loader loads (and of the fixtures), and compiles
/// them against CoreDataQueryInterface in a scratch SwiftPM package: one target per model so names
/// cannot clash, and an empty class for each class that conforms to `Entity` (until the store issue
/// generates the entity classes too).
///
/// Slow (a full SwiftPM build), so it runs only when `CDQI_E2E=1`, as CI sets it.
@Suite struct EndToEndCompileTests {
    static let enabled = ProcessInfo.processInfo.environment["CDQI_E2E"] == "1"
    static let corpusPresent = FileManager.default.fileExists(atPath: TestPaths.corpusModels.path)

    private struct Case {
        var target: String
        var label: String
        var files: [GeneratedFile]
        var classNames: [String]
        var isPublic: Bool
        /// Compile with the main actor as default isolation (Swift 6.2's `defaultIsolation`), as new
        /// app targets do.
        var isMainActorByDefault = false
    }

    @Test(
        .enabled(if: enabled, "set CDQI_E2E=1 to compile generated code for every corpus model (slow)"),
        .enabled(if: corpusPresent, "the corpus (../shared/corpus/models) is absent"),
        .timeLimit(.minutes(30))
    )
    func generatedCodeCompilesForEveryLoadableCorpusModel() throws {
        var cases: [Case] = []
        var notLoaded: [String] = []
        let corpus = try FileManager.default.contentsOfDirectory(atPath: TestPaths.corpusModels.path).sorted()
            .filter { $0.hasSuffix(".xcdatamodeld") || $0.hasSuffix(".xcdatamodel") }
        for name in corpus {
            let url = TestPaths.corpusModels.appendingPathComponent(name)
            guard let loaded = try? ModelLoader().load(url: url) else {
                notLoaded.append(name)
                continue
            }
            cases.append(makeCase(target: "Corpus\(cases.count)", label: name, model: loaded.model, modelName: loaded.modelName))
        }
        let corpusCount = cases.count
        for name in ["Company", "Developers", "Library"] {
            let loaded = try ModelLoader().load(url: TestPaths.fixtures.appendingPathComponent("\(name).xcdatamodeld"))
            cases.append(makeCase(target: "Fixture\(name)", label: name, model: loaded.model, modelName: name))
        }
        let library = try ModelLoader().load(url: TestPaths.fixtures.appendingPathComponent("Library.xcdatamodeld"))
        cases.append(makeCase(
            target: "PublicLibrary", label: "Library (-p -n 2 -s Proxy)", model: library.model, modelName: "Library",
            options: GeneratorOptions(accessLevel: .public, suffix: "Proxy", indentWidth: 2), isPublic: true))
        cases.append(makeCase(target: "Clashes", label: "clash rules", model: Self.clashModel, modelName: "Clashes"))
        var mainActor = makeCase(target: "MainActorLibrary", label: "Library (main actor by default)",
                                 model: library.model, modelName: "Library")
        mainActor.isMainActorByDefault = true
        cases.append(mainActor)

        let failed = try build(cases)
        let corpusFailed = failed.filter { $0.hasPrefix("Corpus") }
        print("""
            cdqi end-to-end: \(corpus.count) corpus models, \(corpusCount) load, \
            \(corpusCount - corpusFailed.count) of them generate code that compiles; \
            not loaded: \(notLoaded.count) \(notLoaded)
            """)
        #expect(!failed.contains(Self.pluginTarget), "the build-tool plugin did not generate usable proxies")
        let labels = failed.compactMap { target in cases.first { $0.target == target }?.label }
        #expect(failed.isEmpty, "generated code does not compile for: \(labels)")
    }

    private func makeCase(
        target: String, label: String, model: ManagedObjectModel, modelName: String,
        options: GeneratorOptions = GeneratorOptions(), isPublic: Bool = false
    ) -> Case {
        let generation = ProxyGenerator(options: options).generate(model, modelName: modelName)
        return Case(
            target: target, label: label, files: generation.files(),
            classNames: generation.proxies.compactMap(\.conformingClassName), isPublic: isPublic)
    }

    /// Names that exercise every rule at once: runtime-type clashes, shadowing class names, keywords,
    /// invalid identifiers, cdqi prefixes, inheritance, shared classes and classless entities.
    static var clashModel: ManagedObjectModel {
        func entity(_ name: String, _ className: String?, parent: String? = nil,
                    _ attributes: [(String, AttributeType)] = [], _ relationships: [(String, String)] = []) -> EntityDescription {
            var entity = EntityDescription(name: name, representedClassName: className, parentEntityName: parent)
            entity.attributes = attributes.map { AttributeDescription(name: $0.0, type: $0.1) }
            entity.relationships = relationships.map { RelationshipDescription(name: $0.0, destinationEntityName: $0.1) }
            return entity
        }
        var model = ManagedObjectModel(entities: [
            entity("String", "String", [("count", .integer64), ("class", .string), ("self", .boolean), ("first-name", .string)],
                   [("owner", "Entity")]),
            entity("Entity", "Entity", [("sum", .double), ("max", .date), ("cdqiKey", .string), ("Type", .uuid)],
                   [("strings", "String")]),
            entity("Date", "StringAttribute", [("min", .binaryData), ("average", .decimal), ("default", .transformable)]),
            entity("Base", "Shared", [("name", .string), ("scratch", .undefined)]),
            entity("Derived", "Shared", parent: "Base", [("extra", .uri), ("name", .string)], [("base", "Base")]),
            entity("Plain", nil, [("protocol", .integer16), ("in", .integer32), ("2x", .float)], [("derived", "Derived")]),
            entity("Renamed", "RenamedMO", [("value", .string)]),
            entity("class", "class", [("is", .boolean)]),
            entity("Place", "Place", [("here", .composite)]),
        ])
        // A composite that nests itself and another, and one named like an entity.
        var here = AttributeDescription(name: "here", type: .composite)
        here.compositeName = "Spot"
        var next = AttributeDescription(name: "next", type: .composite)
        next.compositeName = "Spot"
        var plain = AttributeDescription(name: "plain", type: .composite)
        plain.compositeName = "Plain"
        model.entities[model.entities.count - 1].attributes = [here]
        model.composites = [
            CompositeDescription(name: "Spot", attributes: [AttributeDescription(name: "lat", type: .double), next, plain]),
            CompositeDescription(name: "Plain", attributes: [AttributeDescription(name: "default", type: .string)]),
        ]
        return model
    }

    /// Builds all cases in one scratch package, dropping targets that fail until the rest builds.
    /// Returns the failed targets.
    private func build(_ cases: [Case]) throws -> [String] {
        let fileManager = FileManager.default
        let scratch = fileManager.temporaryDirectory.appendingPathComponent("cdqi-e2e")
        let sources = scratch.appendingPathComponent("Sources")
        try? fileManager.removeItem(at: sources)
        for item in cases {
            let folder = sources.appendingPathComponent(item.target)
            try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
            for file in item.files {
                try file.contents.write(to: folder.appendingPathComponent(file.name), atomically: true, encoding: .utf8)
            }
            let access = item.isPublic ? "public " : ""
            let classes = Set(item.classNames).sorted()
                .map { "\(access)final class \(SwiftIdentifier.escaped($0)) {}\n" }.joined()
            try ("// Stand-ins for the entity classes.\n" + classes)
                .write(to: folder.appendingPathComponent("EntityClasses.swift"), atomically: true, encoding: .utf8)
            if item.isMainActorByDefault {
                // Main-actor code must be able to build proxies and read the conformance.
                let use = "func keyPath() -> String { ItemAttribute().shelf.name.cdqiKeyPath + Item.cdqiEntityName }\n"
                try use.write(to: folder.appendingPathComponent("Use.swift"), atomically: true, encoding: .utf8)
            }
        }
        try writePluginTarget(in: sources)
        var remaining = cases.map(\.target) + [Self.pluginTarget]
        var failed: [String] = []
        while !remaining.isEmpty {
            let mainActorTargets = Set(cases.filter(\.isMainActorByDefault).map(\.target))
            try manifest(targets: remaining, mainActorTargets: mainActorTargets).write(
                to: scratch.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
            let (status, log) = try run(["swift", "build", "--package-path", scratch.path], in: scratch)
            // Compiler warnings in Swift files only: the plugin also relays cdqi's warnings about the model.
            let warnings = log.split(separator: "\n").filter { $0.contains("/Sources/") && $0.contains(".swift:") && $0.contains(": warning:") }
                .filter { line in remaining.contains { line.contains("/cdqi-e2e/Sources/\($0)/") } }
            #expect(warnings.isEmpty, "generated code compiles with warnings:\n\(warnings.joined(separator: "\n"))")
            if status == 0 { break }
            let broken = remaining.filter { log.contains("/cdqi-e2e/Sources/\($0)/") && log.contains(": error:") }
                .filter { target in
                    log.split(separator: "\n").contains { $0.contains("/cdqi-e2e/Sources/\(target)/") && $0.contains(": error:") }
                }
            guard !broken.isEmpty else {
                Issue.record("the scratch package failed to build for a reason outside the generated code:\n\(log.suffix(4000))")
                return failed + remaining
            }
            for target in broken {
                let lines = log.split(separator: "\n").filter { $0.contains("/cdqi-e2e/Sources/\(target)/") && $0.contains(": error:") }
                print("cdqi end-to-end: \(target) fails:\n\(lines.prefix(5).joined(separator: "\n"))")
            }
            failed += broken
            remaining.removeAll { broken.contains($0) }
        }
        return failed
    }

    /// A target that gets its proxies from the build-tool plugin instead of from the test.
    static let pluginTarget = "PluginCompany"

    /// The Company fixture model, stand-ins for its classes, and code that uses the proxies the
    /// plugin must generate at build time (it does not compile unless the plugin ran).
    private func writePluginTarget(in sources: URL) throws {
        let folder = sources.appendingPathComponent(Self.pluginTarget)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: TestPaths.fixtures.appendingPathComponent("Company.xcdatamodeld"),
            to: folder.appendingPathComponent("Company.xcdatamodeld"))
        let code = """
            final class Department {}
            final class Employee {}
            final class TestEntity {}

            func departmentNamePath() -> String { EmployeeAttribute().department.name.cdqiKeyPath }

            """
        try code.write(to: folder.appendingPathComponent("Use.swift"), atomically: true, encoding: .utf8)
    }

    private func manifest(targets: [String], mainActorTargets: Set<String>) -> String {
        let root = TestPaths.packageRoot.resolvingSymlinksInPath()
        let identity = root.lastPathComponent
        let list = targets.map { target in
            var settings = mainActorTargets.contains(target) ? ", swiftSettings: [.defaultIsolation(MainActor.self)]" : ""
            if target == Self.pluginTarget {
                settings += ", plugins: [.plugin(name: \"CDQIPlugin\", package: \"\(identity)\")]"
            }
            return "        .target(name: \"\(target)\", dependencies: [.product(name: \"CoreDataQueryInterface\", "
                + "package: \"\(identity)\")]\(settings)),"
        }.joined(separator: "\n")
        return """
            // swift-tools-version: 6.2
            import PackageDescription

            let package = Package(
                name: "CDQIEndToEnd",
                dependencies: [.package(path: "\(root.path)")],
                targets: [
            \(list)
                ],
                swiftLanguageModes: [.v6]
            )

            """
    }

    private func run(_ arguments: [String], in directory: URL) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let logURL = directory.appendingPathComponent("build.log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let log = try FileHandle(forWritingTo: logURL)
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try log.close()
        return (process.terminationStatus, (try? String(contentsOf: logURL, encoding: .utf8)) ?? "")
    }
}
