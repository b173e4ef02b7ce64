import CDQIModel
import Foundation
import Testing

@testable import CDQIGenerator

/// Entities with Xcode's Manual/None code generation (no `codeGenerationType`): their classes are the
/// user's. When the generator knows which classes the target declares (the build plugin tells it),
/// an entity whose class is missing gets no `Entity` conformance, which would not compile, and one
/// warning names it with both ways out.
@Suite struct ManualClassTests {
    private let model = [
        makeEntity("Developer", attributes: [("name", .string)]),
        makeEntity("Language", attributes: [("name", .string)]),
        makeEntity("Project", className: "ProjectMO", attributes: [("name", .string)]),
    ]

    @Test func undeclaredManualClassesLoseTheirConformanceWithOneWarning() throws {
        let result = generate(model, options: GeneratorOptions(declaredClassNames: ["Developer"]))
        #expect(result.proxy("Developer")?.conformingClassName == "Developer")
        #expect(result.proxy("Language")?.conformingClassName == nil)
        #expect(result.proxy("Project")?.conformingClassName == nil)
        #expect(result.proxySource.contains("extension Developer: Entity"))
        #expect(!result.proxySource.contains("extension Language"))
        #expect(!result.proxySource.contains("extension ProjectMO"))
        // The proxies themselves are all there.
        #expect(result.proxySource.contains("final class LanguageAttribute: EntityAttribute"))
        let warning = try #require(result.warnings(mentioning: "Manual/None").first)
        #expect(result.warnings(mentioning: "Manual/None").count == 1)
        #expect(warning.contains("2 entities"))
        #expect(warning.contains("'Language', 'ProjectMO'"))
        #expect(warning.contains("final class Language: ManagedObject {}"))
        #expect(warning.contains("\"objects\": \"all\""))
        #expect(warning.contains("cdqi --objects"))
    }

    @Test func withoutKnowingTheTargetEveryManualClassConformsAndNothingIsSaid() {
        let result = generate(model)
        #expect(result.generation.proxies.map(\.conformingClassName) == ["Developer", "Language", "ProjectMO"])
        #expect(result.warnings(mentioning: "Manual/None").isEmpty)
    }

    @Test func generatedOrCodegenClassesNeedNoDeclaration() {
        // --objects writes every class: nothing is missing.
        let all = generate(model, options: GeneratorOptions(objectClasses: .all, declaredClassNames: []))
        #expect(all.generation.proxies.map(\.conformingClassName) == ["Developer", "Language", "ProjectMO"])
        #expect(all.warnings(mentioning: "Manual/None").isEmpty)
        // An entity whose code generation is Class gets its class generated: not Manual/None.
        var codegen = model
        codegen[1].codeGenerationType = .class
        let result = generate(codegen, options: GeneratorOptions(declaredClassNames: ["Developer", "ProjectMO"]))
        #expect(result.proxy("Language")?.conformingClassName == "Language")
        #expect(result.warnings(mentioning: "Manual/None").isEmpty)
    }

    @Test func theModelIsWrittenEvenWhenNoEntityGetsAClass() throws {
        let result = generate(model)
        #expect(result.generation.entityClasses.isEmpty)
        #expect(result.generation.files().map(\.name).last == "Model.swift")
        #expect(result.source.contains("enum Model: GeneratedModel {"))
        #expect(result.source.contains("static var entityClasses: [(entityName: String, objectClass: ManagedObject.Type)] {\n        []\n    }"))
    }
}
