import CDQIModel

/// The result of ``ProxyGenerator/generate(_:modelName:)``: the planned proxies, the warnings, and the
/// source files.
public struct ProxyGeneration: Sendable {
    /// The model's name.
    public var modelName: String
    /// The model version the proxies were generated from, if the model came from a bundle.
    public var versionName: String?
    /// The options the source is written with.
    public var options: GeneratorOptions
    /// One proxy per entity, in model order, then one per composite.
    public var proxies: [EntityProxy]
    /// Warnings about what was renamed or left out, each saying why and what to do.
    public var diagnostics: [ModelDiagnostic]
    /// Runtime type names (and `String`) that a class of the model shadows; generated code qualifies them
    /// (`CoreDataQueryInterface.Entity`, `Swift.String`).
    public var shadowedRuntimeNames: Set<String>
    /// The entity classes (and category extensions) to write, in model order: see
    /// ``GeneratorOptions/objectClasses``. Empty when no entity gets one.
    public var entityClasses: [EntityClass]
    /// The name of the generated model type (`CompanyModel`). Always set by the generator: the model is
    /// written even when no entity gets a class (it then registers none).
    public var modelTypeName: String?
    /// The model the code is generated from (the embedded model is built from it).
    public var model: ManagedObjectModel
    /// The warnings of ``diagnostics`` about the entity classes alone (what `cdqi --lightyear`, which
    /// writes no proxies, reports besides its own).
    public var classDiagnostics: [ModelDiagnostic] = []
    /// The versions of the bundle before ``model``, oldest first, that the embedded model carries: when
    /// there are any, it conforms to `VersionedGeneratedModel` (its `versions` are these and ``model``),
    /// so a store an earlier version wrote is migrated when opened, with no bundle at run time. Each
    /// distinct entity, attribute and relationship is built by one function, shared by the versions it
    /// appears in unchanged.
    public var earlierVersions: [ManagedObjectModel] = []

    /// The name of the single file ``mergedFile(entities:)`` writes: `<Model>+CDQI.swift`.
    public static func mergedFileName(modelName: String) -> String {
        "\(modelName)+CDQI.swift"
    }

    /// The proxy of the entity with the given name.
    public func proxy(forEntity name: String) -> EntityProxy? {
        proxies.first { $0.entityName == name && !$0.isComposite }
    }

    /// One file per entity (`<Entity><Suffix>.swift`), in model order, then one per composite
    /// (`<Composite>Composite<Suffix>.swift`); then, when entities get classes, one per class
    /// (`<Class>.swift`, or `<Class>+Properties.swift` for a category); and always the embedded model
    /// (`<ModelType>.swift`, which registers every class, selected or not).
    ///
    /// - Parameter entities: The names of the entities to write, or `nil` for all. The composites the
    ///   selected entities use are written with them. The proxies still
    ///   refer to the others' proxies by name (a parent's, a relationship's destination's), which are
    ///   expected to exist from an earlier run.
    public func files(entities: Set<String>? = nil) -> [GeneratedFile] {
        // Made once: each is built from every entity's names.
        let writer = self.writer
        let objectWriter = self.objectWriter
        var files = selected(entities).map { proxy in
            GeneratedFile(
                name: proxy.fileName,
                contents: writer.file(modelName: modelName, versionName: versionName, proxies: [proxy]),
                entityNames: proxy.isComposite ? [] : [proxy.entityName]
            )
        }
        for entityClass in entityClasses where entities?.contains(entityClass.entityName) ?? true {
            files.append(
                GeneratedFile(
                    name: entityClass.fileName,
                    contents: writer.file(
                        modelName: modelName, versionName: versionName, imports: ObjectSourceWriter.imports,
                        blocks: [objectWriter.declaration(entityClass)]),
                    entityNames: [entityClass.entityName]))
        }
        if let modelFile = modelFile() { files.append(modelFile) }
        return files
    }

    /// The embedded model alone, in `<ModelType>.swift` or the file `name` given.
    public func modelFile(named name: String? = nil) -> GeneratedFile? {
        guard let declaration = modelDeclaration, let modelTypeName else { return nil }
        return GeneratedFile(
            name: name ?? "\(modelTypeName).swift",
            contents: writer.file(
                modelName: modelName, versionName: versionName, imports: ObjectSourceWriter.imports, blocks: [declaration]),
            entityNames: [])
    }

    /// All proxies in one file named after the model (``mergedFileName(modelName:)``).
    ///
    /// - Parameter entities: The names of the entities to include, or `nil` for all. The composites
    ///   the selected entities use are included with them.
    public func mergedFile(entities: Set<String>? = nil) -> GeneratedFile {
        let chosen = selected(entities)
        let classes = entityClasses.filter { entities?.contains($0.entityName) ?? true }
        var blocks = chosen.map(writer.declarations)
        blocks += classes.map(objectWriter.declaration)
        var imports = [RuntimeNames.module]
        if let modelFile = modelDeclaration {
            blocks.append(modelFile)
            imports += ObjectSourceWriter.imports
        }
        return GeneratedFile(
            name: Self.mergedFileName(modelName: modelName),
            contents: writer.file(modelName: modelName, versionName: versionName, imports: imports, blocks: blocks),
            entityNames: chosen.filter { !$0.isComposite }.map(\.entityName)
        )
    }

    /// The class of the entity with the given name, if it gets one.
    public func entityClass(forEntity name: String) -> EntityClass? {
        entityClasses.first { $0.entityName == name }
    }

    private var qualifier: NameQualifier {
        var shadowed = Set(model.entities.compactMap(\.className)).union(proxies.map(\.proxyName))
        if let modelTypeName { shadowed.insert(modelTypeName) }
        return NameQualifier(shadowed: shadowed)
    }

    var objectWriter: ObjectSourceWriter { ObjectSourceWriter(options: options, qualify: qualifier) }

    /// The embedded model's declaration (always written).
    var modelDeclaration: String? {
        guard let modelTypeName else { return nil }
        return ModelSourceWriter(options: options, qualify: qualifier)
            .declaration(
                typeName: modelTypeName, modelName: modelName, model: model, classes: entityClasses, earlierVersions: earlierVersions)
    }

    /// The proxies that the selected entities' proxies refer to (as superclass or relationship
    /// destination) but that the selection leaves out, in model order. Code written for the selection
    /// compiles only if these are declared elsewhere in the module (for example, by an earlier run).
    ///
    /// - Parameter entities: The names of the selected entities, or `nil` for all (then nothing is
    ///   left out).
    public func proxiesReferenced(outside entities: Set<String>?) -> [EntityProxy] {
        let chosen = selected(entities)
        let chosenNames = Set(chosen.map(\.proxyName))
        var referenced: Set<String> = []
        for proxy in chosen {
            if let superclass = proxy.superclassName { referenced.insert(superclass) }
            for property in proxy.properties {
                if case .entity(let name) = property.kind { referenced.insert(name) }
            }
        }
        return proxies.filter { referenced.contains($0.proxyName) && !chosenNames.contains($0.proxyName) }
    }

    var writer: SwiftSourceWriter {
        SwiftSourceWriter(options: options, shadowedRuntimeNames: shadowedRuntimeNames)
    }

    /// The selected entities' proxies and the composite proxies they use (directly or through other
    /// composites), in ``proxies`` order.
    private func selected(_ entities: Set<String>?) -> [EntityProxy] {
        guard let entities else { return proxies }
        let compositeProxies = Dictionary(
            proxies.filter(\.isComposite).map { ($0.proxyName, $0) }, uniquingKeysWith: { first, _ in first })
        var chosen = Set(proxies.filter { !$0.isComposite && entities.contains($0.entityName) }.map(\.proxyName))
        var pending = proxies.filter { chosen.contains($0.proxyName) }
        while let proxy = pending.popLast() {
            for property in proxy.properties {
                guard case .entity(let name) = property.kind, let composite = compositeProxies[name],
                    chosen.insert(name).inserted
                else { continue }
                pending.append(composite)
            }
        }
        return proxies.filter { chosen.contains($0.proxyName) }
    }
}
