import CDQIModel

/// lightyear/Query's `Queryable` conformance of one entity class: an `Attribute` enum whose case names
/// are the entity's stored attribute names (inherited ones included; transient ones left out), so that `where([.quantity: 1])` and
/// `order(by: .date)` compile for it (`cdqi generate --lightyear`):
///
/// ```swift
/// import Query
///
/// nonisolated extension Employee: Queryable {
///     enum Attribute {
///         case firstName, hireDate, lastName
///     }
/// }
/// ```
public struct LightyearConformance: Sendable, Hashable {
    /// The entity's name.
    public var entityName: String
    /// The class that conforms (without backticks).
    public var className: String
    /// The attribute names, in model order (inherited ones first).
    public var attributeNames: [String]

    /// Creates a conformance.
    public init(entityName: String, className: String, attributeNames: [String]) {
        self.entityName = entityName
        self.className = className
        self.attributeNames = attributeNames
    }

    /// The file it is written to on its own: `<Class>+Queryable.swift`.
    public var fileName: String { "\(className)+Queryable.swift" }

    /// The module its source imports.
    static let module = "Query"

    /// Case names that no enum case can take, even in backticks.
    static let impossibleCaseNames: Set<String> = ["self", "Self", "Type", "Protocol", "init", "_"]
}

extension ProxyGeneration {
    /// The `Queryable` conformances to write, in model order, and a warning for each entity that has a
    /// class but gets none.
    ///
    /// Every entity with a class gets one, except: a sub-entity whose ancestor entity has a class (its
    /// class inherits the ancestor's conformance, and Swift allows only one; queries of it use the
    /// ancestor's `Attribute`), a class already conforming for another entity, and a class name that is
    /// no Swift identifier. Attributes whose name cannot be an enum case are left out with a warning.
    public var lightyearConformances: (conformances: [LightyearConformance], diagnostics: [ModelDiagnostic]) {
        var conformances: [LightyearConformance] = []
        var diagnostics: [ModelDiagnostic] = []
        var conforming: Set<String> = []
        for entity in model.entities {
            guard let className = entityClass(forEntity: entity.name)?.className ?? entity.className else { continue }
            func warn(_ message: String) {
                diagnostics.append(ModelDiagnostic(.warning, "entity '\(entity.name)': \(message)", at: entity.location))
            }
            if let ancestor = model.ancestors(of: entity).first(where: { self.className(of: $0) != nil }) {
                warn(
                    "class '\(className)' gets no Queryable conformance of its own: it inherits the one of "
                        + "'\(self.className(of: ancestor) ?? ancestor.name)' (entity '\(ancestor.name)'), whose Attribute it uses")
                continue
            }
            guard SwiftIdentifier.isValid(className), !SwiftIdentifier.impossibleTypeNames.contains(className) else {
                warn("class name '\(className)' is not a Swift identifier: no Queryable conformance written")
                continue
            }
            guard conforming.insert(className).inserted else {
                warn("class '\(className)' already conforms to Queryable for another entity: no second conformance written")
                continue
            }
            var names: [String] = []
            // Transient attributes have no column: no fetch can filter or sort by them.
            for attribute in model.allAttributes(of: entity) where !attribute.isTransient {
                if SwiftIdentifier.isValid(attribute.name), !LightyearConformance.impossibleCaseNames.contains(attribute.name) {
                    names.append(attribute.name)
                } else {
                    diagnostics.append(
                        ModelDiagnostic(
                            .warning,
                            "attribute '\(attribute.name)' of entity '\(entity.name)' cannot be an Attribute case: "
                                + "query it with a format string",
                            at: attribute.location ?? entity.location))
                }
            }
            conformances.append(LightyearConformance(entityName: entity.name, className: className, attributeNames: names))
        }
        return (conformances, diagnostics)
    }

    /// For `--lightyear`: one `<Class>+Queryable.swift` per conformance, then the entity classes and the
    /// embedded model as ``files(entities:)`` writes them; no proxies (they import
    /// `CoreDataQueryInterface`, whose `Query` must not meet lightyear's).
    ///
    /// - Parameter entities: The names of the entities to write, or `nil` for all.
    public func lightyearFiles(entities: Set<String>? = nil) -> [GeneratedFile] {
        let proxyFiles = Set(proxies.map(\.fileName))
        let conformanceFiles = lightyearConformances.conformances
            .filter { entities?.contains($0.entityName) ?? true }
            .map { conformance in
                GeneratedFile(
                    name: conformance.fileName,
                    contents: writer.file(
                        modelName: modelName, versionName: versionName, imports: [LightyearConformance.module],
                        blocks: [lightyearDeclaration(conformance)]),
                    entityNames: [conformance.entityName])
            }
        return conformanceFiles + files(entities: entities).filter { !proxyFiles.contains($0.name) }
    }

    /// For `--lightyear --merged`: the conformances, entity classes and embedded model in one file,
    /// `<Model>+Queryable.swift`.
    public func lightyearMergedFile(entities: Set<String>? = nil) -> GeneratedFile {
        let conformances = lightyearConformances.conformances.filter { entities?.contains($0.entityName) ?? true }
        var blocks = conformances.map(lightyearDeclaration)
        blocks += entityClasses.filter { entities?.contains($0.entityName) ?? true }.map(objectWriter.declaration)
        var imports = [LightyearConformance.module]
        if let modelDeclaration {
            blocks.append(modelDeclaration)
        }
        if !entityClasses.isEmpty { imports += ObjectSourceWriter.imports }
        return GeneratedFile(
            name: "\(modelName)+Queryable.swift",
            contents: writer.file(modelName: modelName, versionName: versionName, imports: imports, blocks: blocks),
            entityNames: conformances.map(\.entityName))
    }

    /// The extension: `nonisolated` so that the enum's `Hashable` conformance is usable from any
    /// isolation in modules whose default isolation is the main actor.
    func lightyearDeclaration(_ conformance: LightyearConformance) -> String {
        let indent = String(repeating: " ", count: max(options.indentWidth, 0))
        let access = options.accessLevel.declarationPrefix
        let opening = "nonisolated extension \(SwiftIdentifier.escaped(conformance.className)): Queryable {"
        // An enum without cases is spelled Hashable: it has no case to make the conformance obvious.
        guard !conformance.attributeNames.isEmpty else {
            return [opening, "\(indent)\(access)enum Attribute: Hashable {}", "}"].joined(separator: "\n")
        }
        let cases = conformance.attributeNames.map(SwiftIdentifier.escaped).joined(separator: ", ")
        let lines = [opening, "\(indent)\(access)enum Attribute {", "\(indent)\(indent)case \(cases)", "\(indent)}", "}"]
        return lines.joined(separator: "\n")
    }

    /// The class of an entity: the generated one's name, or the model's.
    private func className(of entity: EntityDescription) -> String? {
        entityClass(forEntity: entity.name)?.className ?? entity.className
    }
}
