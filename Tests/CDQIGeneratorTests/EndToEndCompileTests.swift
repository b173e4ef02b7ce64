import CDQIModel
import CDQITestSupport
import Foundation
import Testing

@testable import CDQIGenerator

/// Generates the proxies and the entity classes (`--objects`) of every corpus model the loader loads
/// (and of the fixtures), and compiles them against the runtime in a scratch SwiftPM package: one
/// target per model so names cannot clash, with an empty stand-in class for each class that conforms
/// to `Entity` but is not generated. A fixture program (`Expected/Programs/ObjectsRoundTrip.swift`),
/// compiled with the classes of the Company, Developers and Library fixtures, then inserts, saves,
/// fetches and reads typed values through them, and checks that the embedded models equal the model
/// files (same version hashes).
///
/// Slow (a full SwiftPM build), so it runs only when `CDQI_E2E=1`, as CI sets it.
@Suite struct EndToEndCompileTests {
    static let enabled = ProcessInfo.processInfo.environment["CDQI_E2E"] == "1"
    static let corpusPresent = FileManager.default.fileExists(atPath: TestPaths.corpusModels.path)

    private struct Case {
        var target: String
        var label: String
        var files: [GeneratedFile]
        /// Classes the generated code refers to but does not declare: plain stand-ins.
        var classNames: [String]
        /// Classes of `category` entities: hand-written `ManagedObject` subclasses in a real app.
        var categoryClassNames: [String] = []
        var isPublic: Bool
        /// For corpus models: the generated model type and the model file, which the round-trip program
        /// compares (through a public function the target exports).
        var modelCheck: (typeName: String, path: String, carriesVersions: Bool)?
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
            // A bundle of several versions: the model carries the earlier ones, as `cdqi generate` does.
            let earlier = Self.earlierVersions(of: loaded, at: url)
            var corpusCase = makeCase(
                target: "Corpus\(cases.count)", label: name, model: loaded.model, modelName: loaded.modelName,
                options: GeneratorOptions(objectClasses: .all), earlierVersions: earlier)
            let typeName = ProxyGenerator(options: GeneratorOptions(objectClasses: .all))
                .generate(loaded.model, modelName: loaded.modelName).modelTypeName
            corpusCase.modelCheck = typeName.map { ($0, url.path, !earlier.isEmpty) }
            cases.append(corpusCase)
        }
        let corpusCount = cases.count
        // The fixtures as the model says (Company's Department and Employee have code generation
        // `class`; the rest get proxies only).
        for name in ["Company", "Developers", "Library"] {
            let loaded = try ModelLoader().load(url: TestPaths.fixtures.appendingPathComponent("\(name).xcdatamodeld"))
            cases.append(makeCase(target: "Fixture\(name)", label: name, model: loaded.model, modelName: name))
        }
        let library = try ModelLoader().load(url: TestPaths.fixtures.appendingPathComponent("Library.xcdatamodeld"))
        cases.append(
            makeCase(
                target: "PublicLibrary", label: "Library (-p -n 2 -s Proxy --objects)", model: library.model, modelName: "Library",
                options: GeneratorOptions(accessLevel: .public, suffix: "Proxy", indentWidth: 2, objectClasses: .all), isPublic: true))
        cases.append(makeCase(target: "Clashes", label: "clash rules", model: Self.clashModel, modelName: "Clashes"))
        cases.append(
            makeCase(
                target: "ClashesObjects", label: "clash rules (--objects)", model: Self.clashModel,
                modelName: "Clashes", options: GeneratorOptions(objectClasses: .all)))
        var categories = library.model
        for index in categories.entities.indices { categories.entities[index].codeGenerationType = .category }
        cases.append(
            makeCase(
                target: "CategoryLibrary", label: "Library (every entity a category)", model: categories,
                modelName: "Library"))
        var mainActor = makeCase(
            target: "MainActorLibrary", label: "Library (main actor by default, --objects)",
            model: library.model, modelName: "Library", options: GeneratorOptions(objectClasses: .all))
        mainActor.isMainActorByDefault = true
        cases.append(mainActor)
        var program = Case(
            target: Self.programTarget, label: "the objects round-trip program", files: [], classNames: [],
            isPublic: false)
        for name in ["Company", "Developers", "Library"] {
            let loaded = try ModelLoader().load(url: TestPaths.fixtures.appendingPathComponent("\(name).xcdatamodeld"))
            program.files += ProxyGenerator(options: GeneratorOptions(objectClasses: .all))
                .generate(loaded.model, modelName: name).files()
        }
        program.files.append(
            GeneratedFile(
                name: "main.swift", contents: try TestPaths.expectedText("Programs/ObjectsRoundTrip.swift"), entityNames: []))
        cases.append(program)
        // The README's example program (bin/demo), with the code `cdqi Company --objects` writes.
        let company = try ModelLoader().load(url: TestPaths.fixtures.appendingPathComponent("Company.xcdatamodeld"))
        var example = makeCase(
            target: Self.exampleTarget, label: "the README's example program", model: company.model,
            modelName: "Company", options: GeneratorOptions(objectClasses: .all))
        example.files.append(
            GeneratedFile(
                name: "main.swift",
                contents: try String(contentsOf: Self.exampleFolder.appendingPathComponent("Sources/CompanyExample/main.swift"), encoding: .utf8),
                entityNames: []))
        cases.append(example)

        let failed = try build(cases)
        let corpusFailed = failed.filter { $0.hasPrefix("Corpus") }
        print(
            """
            cdqi end-to-end: \(corpus.count) corpus models, \(corpusCount) load, \
            \(corpusCount - corpusFailed.count) of them generate code that compiles; \
            not loaded: \(notLoaded.count) \(notLoaded)
            """)
        #expect(!failed.contains(Self.pluginTarget), "the build-tool plugin did not generate usable proxies")
        let labels = failed.compactMap { target in cases.first { $0.target == target }?.label }
        #expect(failed.isEmpty, "generated code does not compile for: \(labels)")

        // Run the round-trip program.
        if !failed.contains(Self.programTarget) {
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-e2e")
            let (status, output) = try run(
                ["swift", "run", "--package-path", scratch.path, "--skip-build", Self.programTarget, TestPaths.fixtures.path],
                in: scratch)
            for line in output.split(separator: "\n") { print("cdqi end-to-end: \(line)") }
            #expect(status == 0, "the objects round-trip program failed:\n\(output.suffix(4000))")
            #expect(output.contains("objects round trip: ok ("))
            let corpusChecked = cases.filter { $0.modelCheck != nil && !failed.contains($0.target) }.count
            #expect(output.contains("\(corpusChecked) corpus models"), "every compiled corpus model is checked")
        }

        // Run the example program: its output is worked out by hand in Examples/Company/expected-output.txt.
        #expect(!failed.contains(Self.exampleTarget), "the example program does not compile")
        if !failed.contains(Self.exampleTarget) {
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-e2e")
            let (status, output) = try run(
                ["swift", "run", "--package-path", scratch.path, "--skip-build", Self.exampleTarget], in: scratch)
            let expected = try String(contentsOf: Self.exampleFolder.appendingPathComponent("expected-output.txt"), encoding: .utf8)
            #expect(status == 0, "the example program failed:\n\(output.suffix(4000))")
            #expect(output == expected)
        }
    }

    /// The executable target that runs generated classes against the store.
    static let programTarget = "ObjectsRoundTrip"
    /// The example program of `Examples/Company`, whose output must be `expected-output.txt`.
    static let exampleTarget = "CompanyExample"
    static let exampleFolder = TestPaths.packageRoot.appendingPathComponent("Examples/Company")

    /// The versions of the bundle at `url` before `loaded`'s, oldest first; none when it is not a bundle,
    /// holds one version, or has a version that does not load.
    static func earlierVersions(of loaded: LoadedModel, at url: URL) -> [ManagedObjectModel] {
        guard url.pathExtension == "xcdatamodeld", let bundle = try? LoadedBundle(url: url),
            let index = bundle.versions.firstIndex(where: { $0.model.versionName == loaded.model.versionName })
        else { return [] }
        return bundle.versions[..<index].map(\.model)
    }

    private func makeCase(
        target: String, label: String, model: ManagedObjectModel, modelName: String,
        options: GeneratorOptions = GeneratorOptions(), isPublic: Bool = false, earlierVersions: [ManagedObjectModel] = []
    ) -> Case {
        let generation = ProxyGenerator(options: options).generate(model, modelName: modelName, earlierVersions: earlierVersions)
        let generated = Set(generation.entityClasses.map(\.className))
        let categories = generation.entityClasses.filter { $0.form == .category }.map(\.className)
        return Case(
            target: target, label: label, files: generation.files(),
            classNames: generation.proxies.compactMap(\.conformingClassName).filter { !generated.contains($0) },
            categoryClassNames: categories, isPublic: isPublic)
    }

    /// Names that exercise every rule at once: runtime-type clashes, shadowing class names, keywords,
    /// invalid identifiers, cdqi prefixes, inheritance, shared classes and classless entities.
    static var clashModel: ManagedObjectModel {
        func entity(
            _ name: String, _ className: String?, parent: String? = nil,
            _ attributes: [(String, AttributeType)] = [], _ relationships: [(String, String)] = []
        ) -> EntityDescription {
            var entity = EntityDescription(name: name, representedClassName: className, parentEntityName: parent)
            entity.attributes = attributes.map { AttributeDescription(name: $0.0, type: $0.1) }
            entity.relationships = relationships.map { RelationshipDescription(name: $0.0, destinationEntityName: $0.1) }
            return entity
        }
        var model = ManagedObjectModel(entities: [
            entity(
                "String", "String", [("count", .integer64), ("class", .string), ("self", .boolean), ("first-name", .string)],
                [("owner", "Entity")]),
            entity(
                "Entity", "Entity", [("sum", .double), ("max", .date), ("cdqiKey", .string), ("Type", .uuid)],
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
            let categories = Set(item.categoryClassNames).sorted()
                .map { "\(access)nonisolated class \(SwiftIdentifier.escaped($0)): CDQIStore.ManagedObject {}\n" }.joined()
            // Always written, so that a target whose model generates nothing still has a source file.
            try ("// Stand-ins for the entity classes.\n\(categories.isEmpty ? "" : "import CDQIStore\n\n")" + classes + categories)
                .write(to: folder.appendingPathComponent("EntityClasses.swift"), atomically: true, encoding: .utf8)
            if let check = item.modelCheck {
                try modelCheckSource(typeName: check.typeName, path: check.path, carriesVersions: check.carriesVersions)
                    .write(to: folder.appendingPathComponent("ModelCheck.swift"), atomically: true, encoding: .utf8)
            }
            if item.isMainActorByDefault {
                // Main-actor code must be able to build proxies, read the conformance and the typed properties.
                let use = """
                    func keyPath() -> String { ItemAttribute().shelf.name.cdqiKeyPath + Item.cdqiEntityName }
                    func title(_ item: Item) -> String { item.title + (item.shelf?.name ?? "") }

                    """
                try use.write(to: folder.appendingPathComponent("Use.swift"), atomically: true, encoding: .utf8)
            }
        }
        try writePluginTarget(in: sources)
        var remaining = cases.map(\.target) + [Self.pluginTarget]
        var failed: [String] = []
        while !remaining.isEmpty {
            let mainActorTargets = Set(cases.filter(\.isMainActorByDefault).map(\.target))
            let checked = cases.filter { $0.modelCheck != nil && remaining.contains($0.target) }
            try corpusChecksSource(checked).write(
                to: sources.appendingPathComponent("\(Self.programTarget)/CorpusChecks.swift"), atomically: true, encoding: .utf8)
            try manifest(targets: remaining, mainActorTargets: mainActorTargets, programDependencies: checked.map(\.target)).write(
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
        // Department and Employee have code generation `class`: the plugin generates them.
        let code = """
            final class TestEntity {}

            func departmentNamePath() -> String { EmployeeAttribute().department.name.cdqiKeyPath }
            func registeredClasses() -> Int { CompanyModel.entityClasses.count }
            func lastName(_ employee: Employee) -> String { employee.lastName + (employee.department?.name ?? "") }

            """
        try code.write(to: folder.appendingPathComponent("Use.swift"), atomically: true, encoding: .utf8)
    }

    /// A public function of a corpus target: `nil` when its embedded model equals the model file (so
    /// has the same version hashes), the versions it carries (when it does) equal the bundle's up to that
    /// one, and it opens an in-memory store with its classes registered. A store
    /// that does not open is the store layer's problem, not the generator's: that answer starts with
    /// `store:`, and the program reports it as a note.
    private func modelCheckSource(typeName: String, path: String, carriesVersions: Bool) -> String {
        let literal = SwiftSourceWriter.stringLiteral(path)
        let versionsCheck =
            carriesVersions
            ? """
                guard let bundle = try? CDQIModel.LoadedBundle(url: Foundation.URL(fileURLWithPath: \(literal))),
                    let index = bundle.versions.firstIndex(where: { $0.model.versionName == loaded.model.versionName }),
                    \(typeName).versions == bundle.versions[...index].map({ $0.model })
                else { return "the carried versions differ from the bundle's" }

            """ : ""
        return """
            import CDQIModel
            import CDQIStore
            import Foundation

            public func cdqiEmbeddedModelProblem() -> Swift.String? {
                guard let loaded = try? CDQIModel.ModelLoader().load(url: Foundation.URL(fileURLWithPath: \(literal))) else {
                    return "the model file does not load"
                }
                guard \(typeName).model == loaded.model else { return "the embedded model differs from the model file" }
                guard CDQIModel.ModelVersionHashes(model: \(typeName).model) == CDQIModel.ModelVersionHashes(model: loaded.model) else {
                    return "the version hashes differ"
                }
            \(versionsCheck)    do {
                    _ = try CDQIStore.PersistentContainer(model: \(typeName).self, url: nil)
                } catch {
                    return "store: an in-memory store does not open: \\(error)"
                }
                return nil
            }

            """
    }

    /// The round-trip program's list of corpus checks, for the corpus targets that still build.
    private func corpusChecksSource(_ cases: [Case]) -> String {
        let imports = cases.map { "import \($0.target)\n" }.joined()
        let entries = cases.map { "    (\(SwiftSourceWriter.stringLiteral($0.label)), \($0.target).cdqiEmbeddedModelProblem),\n" }.joined()
        return "\(imports)\n/// Each corpus model compiled into this program, with its check.\n"
            + "let corpusChecks: [(label: String, problem: @Sendable () -> String?)] = [\n\(entries)]\n"
    }

    private func manifest(targets: [String], mainActorTargets: Set<String>, programDependencies: [String]) -> String {
        let root = TestPaths.packageRoot.resolvingSymlinksInPath()
        let identity = root.lastPathComponent
        let list = targets.map { target in
            var settings = mainActorTargets.contains(target) ? ", swiftSettings: [.defaultIsolation(MainActor.self)]" : ""
            if target == Self.pluginTarget {
                settings += ", plugins: [.plugin(name: \"CDQIPlugin\", package: \"\(identity)\")]"
            }
            var products = ["CoreDataQueryInterface", "CDQIStore", "CDQIModel"]
                .map { ".product(name: \"\($0)\", package: \"\(identity)\")" }.joined(separator: ", ")
            if target == Self.programTarget {
                products += programDependencies.map { ", \"\($0)\"" }.joined()
            }
            let kind = target == Self.programTarget || target == Self.exampleTarget ? "executableTarget" : "target"
            return "        .\(kind)(name: \"\(target)\", dependencies: [\(products)]\(settings)),"
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
        try ProcessRunner.run(arguments, in: directory, logName: "build.log")
    }
}
