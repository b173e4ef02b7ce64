import CDQIModel
import CDQITestSupport
import Foundation
import Testing

@testable import CDQIGenerator

/// Compiles what `cdqi generate Company --lightyear` writes against the `Query` module in a scratch
/// SwiftPM package, and runs a program that queries through the generated `Attribute` cases; a second
/// target compiles the same files with the main actor as default isolation, as new app targets do, and
/// a third has the model in its folder and the build-tool plugin, which writes the conformances
/// because the target depends on `Query`.
///
/// Slow (a full SwiftPM build), so it runs only when `CDQI_E2E=1`, as CI sets it.
@Suite struct LightyearEndToEndTests {
    static let enabled = ProcessInfo.processInfo.environment["CDQI_E2E"] == "1"

    /// The program's output, worked out by hand: the Lees by salary descending are Bob (200) and Ann
    /// (100); salaries in 150...300 are Bob's and Cy's; no department is named R&D, so one is inserted.
    static let program = """
        import CDQIStore
        import Query

        let container = try PersistentContainer(model: CompanyModel.self, url: nil)
        let context = container.viewContext
        for (first, last, salary) in [("Ann", "Lee", 100), ("Bob", "Lee", 200), ("Cy", "Ng", 300)] {
            let employee = try context.insert(Employee.self)
            employee.firstName = first
            employee.lastName = last
            employee.salary = Int32(salary)
        }
        try context.save()
        let lees = try Employee.query(in: context).where([.lastName: "Lee"]).order(by: .salary, .descending).all()
        print(lees.map(\\.firstName).joined(separator: ","))
        print(try Employee.query(in: context).where([.salary: 150...300]).count())
        let department = try Department.query(in: context).where([.name: "R&D"]).firstOrInsert()
        print(department.isInserted, department.name)

        """

    static let mainActorUse = """
        import CDQIStore
        import Query

        func countLees(in context: ManagedObjectContext) throws -> Int {
            try Employee.query(in: context).where([.lastName: "Lee"]).order(by: .hireDate).count()
        }

        """

    static let pluginUse = """
        import CDQIStore
        import Query

        final class TestEntity: ManagedObject {}

        func countLees(in context: ManagedObjectContext) throws -> Int {
            try Employee.query(in: context).where([.lastName: "Lee"]).order(by: .firstName).count()
        }

        """

    @Test(.enabled(if: enabled, "set CDQI_E2E=1 to compile the code cdqi --lightyear writes (slow)"), .timeLimit(.minutes(30)))
    func generatedConformancesCompileAndQuery() throws {
        let loaded = try ModelLoader().load(url: TestPaths.fixtures.appendingPathComponent("Company.xcdatamodeld"))
        let files = ProxyGenerator().generate(loaded.model, modelName: "Company").lightyearFiles()
        // TestEntity's code generation is manual: its class is the app's.
        let standIn = "import CDQIStore\n\nnonisolated final class TestEntity: ManagedObject {}\n"
        let fileManager = FileManager.default
        let scratch = fileManager.temporaryDirectory.appendingPathComponent("cdqi-e2e-lightyear")
        let sources = scratch.appendingPathComponent("Sources")
        try? fileManager.removeItem(at: sources)
        for (target, extra) in [("LightyearCompany", ("main.swift", Self.program)), ("LightyearMainActor", ("Use.swift", Self.mainActorUse))] {
            let folder = sources.appendingPathComponent(target)
            try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
            for file in files {
                try file.contents.write(to: folder.appendingPathComponent(file.name), atomically: true, encoding: .utf8)
            }
            try standIn.write(to: folder.appendingPathComponent("TestEntity.swift"), atomically: true, encoding: .utf8)
            try extra.1.write(to: folder.appendingPathComponent(extra.0), atomically: true, encoding: .utf8)
        }
        let pluginFolder = sources.appendingPathComponent("LightyearPlugin")
        try fileManager.createDirectory(at: pluginFolder, withIntermediateDirectories: true)
        try fileManager.copyItem(
            at: TestPaths.fixtures.appendingPathComponent("Company.xcdatamodeld"),
            to: pluginFolder.appendingPathComponent("Company.xcdatamodeld"))
        try Self.pluginUse.write(to: pluginFolder.appendingPathComponent("Use.swift"), atomically: true, encoding: .utf8)
        let root = TestPaths.packageRoot.resolvingSymlinksInPath()
        let products = ["Query", "CDQIStore", "CDQIModel"]
            .map { ".product(name: \"\($0)\", package: \"\(root.lastPathComponent)\")" }.joined(separator: ", ")
        let manifest = """
            // swift-tools-version: 6.2
            import PackageDescription

            let package = Package(
                name: "CDQILightyearEndToEnd",
                dependencies: [.package(path: "\(root.path)")],
                targets: [
                    .executableTarget(name: "LightyearCompany", dependencies: [\(products)]),
                    .target(name: "LightyearMainActor", dependencies: [\(products)],
                            swiftSettings: [.defaultIsolation(MainActor.self)]),
                    .target(name: "LightyearPlugin", dependencies: [\(products)],
                            plugins: [.plugin(name: "CDQIPlugin", package: "\(root.lastPathComponent)")]),
                ],
                swiftLanguageModes: [.v6]
            )

            """
        try manifest.write(to: scratch.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let (buildStatus, buildLog) = try run(["swift", "build", "--package-path", scratch.path], in: scratch)
        #expect(buildStatus == 0, "the generated conformances do not compile:\n\(buildLog.suffix(4000))")
        let warnings = buildLog.split(separator: "\n").filter { $0.contains("/cdqi-e2e-lightyear/Sources/") && $0.contains(": warning:") }
        #expect(warnings.isEmpty, "generated code compiles with warnings:\n\(warnings.joined(separator: "\n"))")
        guard buildStatus == 0 else { return }
        let (status, output) = try run(
            ["swift", "run", "--package-path", scratch.path, "--skip-build", "LightyearCompany"], in: scratch)
        #expect(status == 0, "the program failed:\n\(output.suffix(4000))")
        #expect(output.hasSuffix("Bob,Ann\n2\ntrue R&D\n"), "\(output.suffix(2000))")
    }

    private func run(_ arguments: [String], in directory: URL) throws -> (Int32, String) {
        try ProcessRunner.run(arguments, in: directory, logName: "build.log")
    }
}
