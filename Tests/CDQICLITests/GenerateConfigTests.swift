import Foundation
import Testing

/// `cdqi generate --config FILE` (what the build plugin passes for a `cdqi.json` beside a model) and
/// `--classes-in FOLDER` (the target's sources, where Manual/None classes are looked for).
@Suite struct GenerateConfigTests {
    private func write(_ text: String, to name: String, in folder: TemporaryFolder) throws -> String {
        let url = folder.url.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func theFileSetsObjectsPublicSuffixIndentExcludeAndMerged() throws {
        let folder = try TemporaryFolder()
        try folder.copyFixture("Developers.xcdatamodeld")
        let config = try write(
            #"{"objects": "all", "public": true, "suffix": "Proxy", "indent": 2, "exclude": ["Language"], "merged": true}"#,
            to: "cdqi.json", in: folder)
        let output = try CommandRunner.run(["Developers", "--config", config, "-o", "Out"], in: folder.url)
        #expect(output.status == 0, "\(output.standardError)")
        #expect(folder.files(in: "Out") == ["Developers+CDQI.swift"])
        let text = try #require(folder.contents("Out/Developers+CDQI.swift"))
        // objects: all → classes of the Manual/None entities; public; the suffix; two-space indentation.
        #expect(text.contains("\npublic nonisolated final class DeveloperProxy: EntityAttribute, Subqueryable {\n  public private(set) lazy var"))
        #expect(text.contains("nonisolated final class Developer: ManagedObject {"))
        #expect(text.contains("enum DevelopersModel: GeneratedModel {"))
        // Language's proxy is excluded (its class is still generated and registered, as --objects does).
        #expect(!text.contains("class LanguageProxy"))
    }

    @Test func theStyleChoosesLightyearOrSwormOutput() throws {
        let folder = try TemporaryFolder()
        try folder.copyFixture("Developers.xcdatamodeld")
        let lightyear = try write(#"{"style": "lightyear", "objects": "all"}"#, to: "lightyear.json", in: folder)
        let light = try CommandRunner.run(["Developers", "--config", lightyear, "-m", "-o", "Light"], in: folder.url)
        #expect(light.status == 0, "\(light.standardError)")
        #expect(folder.files(in: "Light") == ["Developers+Queryable.swift"])
        let sworm = try write(#"{"style": "sworm"}"#, to: "sworm.json", in: folder)
        let structs = try CommandRunner.run(["Developers", "--config", sworm, "-o", "Sworm"], in: folder.url)
        #expect(structs.status == 0, "\(structs.standardError)")
        #expect(folder.files(in: "Sworm") == ["Developers+Sworm.swift", "Developers+SwormModel.swift"])
    }

    @Test func theCommandLineWinsOverTheFile() throws {
        let folder = try TemporaryFolder()
        try folder.copyFixture("Developers.xcdatamodeld")
        let config = try write(#"{"suffix": "Proxy"}"#, to: "cdqi.json", in: folder)
        let output = try CommandRunner.run(["Developers", "--config", config, "--suffix", "Q", "-o", "Out"], in: folder.url)
        #expect(output.status == 0, "\(output.standardError)")
        #expect(folder.files(in: "Out") == ["DeveloperQ.swift", "DevelopersModel.swift", "LanguageQ.swift", "ProjectQ.swift"])
    }

    @Test(arguments: [
        (#"{"objects": "some"}"#, #"'objects' must be "all" or "codegen", not "some""#),
        (#"{"public": "yes"}"#, "'public' must be true or false"),
        (#"{"indent": true}"#, "'indent' must be a whole number from 1 to 16"),
        (#"{"exclude": "Language"}"#, "'exclude' must be an array of entity names"),
        (#"{"object": "all"}"#, "unknown key 'object' (known: objects, public, suffix, exclude, merged, indent, style, versions)"),
        (#"{"versions": "latest"}"#, #"'versions' must be "all" or "current", not "latest""#),
        (#"{"style": "swarm"}"#, #"'style' must be "proxies", "lightyear" or "sworm", not "swarm""#),
        (#"["objects"]"#, "the configuration must be a JSON object"),
        (#"{"objects": "#, "the configuration is not valid JSON"),
        (#"{"indent": 40}"#, "--indent 40 must be between 1 and 16."),
    ])
    func badFilesAreUsageErrorsNamingFileAndKey(text: String, message: String) throws {
        let folder = try TemporaryFolder()
        try folder.copyFixture("Developers.xcdatamodeld")
        let config = try write(text, to: "cdqi.json", in: folder)
        let output = try CommandRunner.run(["Developers", "--config", config, "-o", "Out"], in: folder.url)
        #expect(output.status == 64)
        #expect(output.standardError.contains(message), "\(output.standardError)")
        if !message.hasPrefix("--indent") { #expect(output.standardError.contains("\(config): error: ")) }
        #expect(folder.files(in: "Out").isEmpty)
    }

    @Test func aMissingOrIrregularFileIsRefused() throws {
        let folder = try TemporaryFolder()
        try folder.copyFixture("Developers.xcdatamodeld")
        let missing = try CommandRunner.run(["Developers", "--config", "nope.json"], in: folder.url)
        #expect(missing.status == 64)
        #expect(missing.standardError.contains("nope.json: error: the configuration file does not exist"))
        let directory = try CommandRunner.run(["Developers", "--config", "Developers.xcdatamodeld"], in: folder.url)
        #expect(directory.status == 64)
        #expect(directory.standardError.contains("is not a regular file"))
    }

    @Test func classesInTheTargetDecideWhichManualEntitiesConform() throws {
        let folder = try TemporaryFolder()
        try folder.copyFixture("Developers.xcdatamodeld", into: "App")
        // The target declares Developer (and mentions Language only as a property type).
        _ = try write(
            "import CDQIStore\n\nfinal class Developer: ManagedObject {\n    var favourite: Language? { nil }\n}\n",
            to: "App/Developer.swift", in: folder)
        let output = try CommandRunner.run(["Developers", "--classes-in", "App", "-m", "-o", "Out"], in: folder.url)
        #expect(output.status == 0, "\(output.standardError)")
        let text = try #require(folder.contents("Out/Developers+CDQI.swift"))
        #expect(text.contains("extension Developer: Entity"))
        #expect(!text.contains("extension Language: Entity"))
        #expect(!text.contains("extension Project: Entity"))
        let warnings = output.standardError.split(separator: "\n").filter { $0.contains("Manual/None") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("Developers.xcdatamodel/contents:") == true)
        #expect(warnings.first?.contains("2 entities with Manual/None code generation have no class in this target ('Language', 'Project')") == true)
    }
}

/// A model with no entities is not silently skipped.
@Suite struct EmptyModelTests {
    @Test func anEmptyModelSaysSo() throws {
        let folder = try TemporaryFolder()
        let version = folder.url.appendingPathComponent("Empty.xcdatamodeld/Empty.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="23507" systemVersion="24G84" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
        </model>
        """.write(to: version.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let output = try CommandRunner.run(["Empty", "-o", "Out"], in: folder.url)
        #expect(output.status == 0)
        #expect(output.standardError.contains("Empty.xcdatamodel/contents: warning: the model has no entities"))
        #expect(folder.files(in: "Out") == ["EmptyModel.swift"])
    }
}
