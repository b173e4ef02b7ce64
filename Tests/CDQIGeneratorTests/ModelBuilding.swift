import CDQIGenerator
import CDQIModel

/// Builds small models in code for the rule tests.
func makeEntity(
    _ name: String,
    className: String?? = .none,
    parent: String? = nil,
    attributes: [(String, AttributeType)] = [],
    relationships: [(String, String)] = [],
    line: Int = 0
) -> EntityDescription {
    // By default the class is named after the entity, as Xcode does.
    let represented: String? =
        switch className {
        case .none: name
        case .some(let value): value
        }
    var entity = EntityDescription(name: name, representedClassName: represented, parentEntityName: parent)
    entity.attributes = attributes.map { AttributeDescription(name: $0.0, type: $0.1, isOptional: true) }
    entity.relationships = relationships.map { RelationshipDescription(name: $0.0, destinationEntityName: $0.1) }
    if line > 0 { entity.location = SourceLocation(file: "Model.xcdatamodel/contents", line: line) }
    return entity
}

/// Generates `entities` with default options, or the given ones.
func generate(_ entities: [EntityDescription], options: GeneratorOptions = GeneratorOptions()) -> ProxyGenerationResult {
    let generation = ProxyGenerator(options: options)
        .generate(ManagedObjectModel(entities: entities), modelName: "Model")
    return ProxyGenerationResult(generation: generation)
}

/// A generation plus shortcuts for the assertions.
struct ProxyGenerationResult {
    let generation: ProxyGeneration
    var source: String { generation.mergedFile().contents }
    /// The merged file up to the embedded model, which every generation ends with.
    var proxySource: String {
        let contents = generation.mergedFile().contents
        guard let model = contents.range(of: "/// The \(generation.modelName) model, built in code") else { return contents }
        return String(contents[..<model.lowerBound].dropLast())  // the blank line between the two
    }
    var messages: [String] { generation.diagnostics.map(\.message) }
    func proxy(_ entity: String) -> EntityProxy? { generation.proxy(forEntity: entity) }
    /// The warnings that mention `text`.
    func warnings(mentioning text: String) -> [String] { messages.filter { $0.contains(text) } }
}
