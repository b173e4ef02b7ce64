import CDQIModel

/// Renders a model as Swift code that builds the same `ManagedObjectModel` value (compile-time checked:
/// nothing is parsed or decoded at run time), inside an enum that conforms to `GeneratedModel` and lists
/// the entity classes to register.
///
/// Only settings that differ from the model types' defaults are written. Every setting the model types
/// hold is covered, so the built model equals the loaded one (and so has the same version hashes);
/// only source locations are not kept.
struct ModelSourceWriter {
    let options: GeneratorOptions
    let qualify: NameQualifier

    private var indent: String { String(repeating: " ", count: max(options.indentWidth, 0)) }
    private var access: String { options.accessLevel.declarationPrefix }

    /// The enum's declaration. With `earlierVersions` (the bundle's versions before `model`, oldest
    /// first), it conforms to `VersionedGeneratedModel` and builds those too: each distinct entity,
    /// composite, attribute and relationship has one builder, shared by every version (and entity) it
    /// appears in unchanged, so a bundle of many versions is written once per change, not once per version.
    func declaration(
        typeName: String, modelName: String, model: ManagedObjectModel, classes: [EntityClass],
        earlierVersions: [ManagedObjectModel] = []
    ) -> String {
        let i1 = indent, i2 = indent + indent, i3 = indent + indent + indent
        let isVersioned = !earlierVersions.isEmpty
        var lines = [
            "/// The \(commentSafe(modelName)) model, built in code, and its entity classes: open a store with",
            "/// `try PersistentContainer(model: \(typeName).self, url: storeURL)` (generated: do not edit).",
        ]
        if isVersioned {
            lines += [
                "/// It carries the bundle's earlier versions: a store one of them wrote is migrated when opened.",
                "\(access)nonisolated enum \(typeName): \(qualify("VersionedGeneratedModel")) {",
            ]
        } else {
            lines.append("\(access)nonisolated enum \(typeName): \(qualify("GeneratedModel")) {")
        }
        lines += [
            "\(i1)/// The model (equal to the model file's, with the same version hashes).",
            "\(i1)\(access)static let model: \(qualify("ManagedObjectModel")) = makeModel()",
            "",
        ]
        if isVersioned {
            let calls = earlierVersions.indices.map { "makeVersion\($0)()" } + ["model"]
            lines += [
                "\(i1)/// The bundle's versions up to this one, oldest first (`model` last).",
                "\(i1)\(access)static let versions: [\(qualify("ManagedObjectModel"))] = [\(calls.joined(separator: ", "))]",
                "",
            ]
        }
        lines += [
            "\(i1)/// The entity classes, registered by `PersistentContainer(model:url:)`.",
            "\(i1)\(access)static var entityClasses: [(entityName: \(qualify("String")), objectClass: \(qualify("ManagedObject")).Type)] {",
        ]
        if classes.isEmpty {
            lines.append("\(i2)[]")
        } else {
            lines.append("\(i2)[")
            for entityClass in classes {
                lines.append("\(i3)(\(literal(entityClass.entityName)), \(SwiftIdentifier.escaped(entityClass.className)).self),")
            }
            lines.append("\(i2)]")
        }
        lines += ["\(i1)}", ""]

        // One builder per distinct entity and composite body: the current model's first, numbered as
        // they come, then the earlier versions' that differ from every one before.
        // With several versions, attributes and relationships get builders too: an entity that changed
        // between versions mostly keeps its properties, which are then written once.
        var entityBuilders = Builders()
        var compositeBuilders = Builders()
        var propertyBuilders: PropertyBuilders? = isVersioned ? PropertyBuilders() : nil
        let current = (
            entities: model.entities.map { entityBuilders.index(of: entityBody($0, sharing: &propertyBuilders)) },
            composites: model.composites.map { compositeBuilders.index(of: compositeBody($0)) }
        )
        let earlier = earlierVersions.map { version in
            (
                entities: version.entities.map { entityBuilders.index(of: entityBody($0, sharing: &propertyBuilders)) },
                composites: version.composites.map { compositeBuilders.index(of: compositeBody($0)) }
            )
        }

        lines.append("\(i1)private static func makeModel() -> \(qualify("ManagedObjectModel")) {")
        lines += modelBody(model, entities: current.entities, composites: current.composites).map { i2 + $0 }
        lines.append("\(i1)}")
        for (index, version) in earlierVersions.enumerated() {
            lines.append("")
            if let name = version.versionName { lines.append("\(i1)/// Version \(commentSafe(name)).") }
            lines.append("\(i1)private static func makeVersion\(index)() -> \(qualify("ManagedObjectModel")) {")
            lines += modelBody(version, entities: earlier[index].entities, composites: earlier[index].composites).map { i2 + $0 }
            lines.append("\(i1)}")
        }

        for (index, body) in entityBuilders.bodies.enumerated() {
            lines.append("")
            lines.append("\(i1)private static func entity\(index)() -> \(qualify("EntityDescription")) {")
            lines += body.map { i2 + $0 }
            lines.append("\(i1)}")
        }
        for (index, body) in compositeBuilders.bodies.enumerated() {
            lines.append("")
            lines.append("\(i1)private static func composite\(index)() -> \(qualify("CompositeDescription")) {")
            lines += body.map { i2 + $0 }
            lines.append("\(i1)}")
        }
        for (index, body) in (propertyBuilders?.attributes.bodies ?? []).enumerated() {
            lines.append("")
            lines.append("\(i1)private static func attribute\(index)() -> \(qualify("AttributeDescription")) {")
            lines += body.map { i2 + $0 }
            lines.append("\(i1)}")
        }
        for (index, body) in (propertyBuilders?.relationships.bodies ?? []).enumerated() {
            lines.append("")
            lines.append("\(i1)private static func relationship\(index)() -> \(qualify("RelationshipDescription")) {")
            lines += body.map { i2 + $0 }
            lines.append("\(i1)}")
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// Builder bodies, each kept once, numbered in the order first seen.
    private struct Builders {
        var bodies: [[String]] = []
        var numbers: [[String]: Int] = [:]

        mutating func index(of body: [String]) -> Int {
            if let number = numbers[body] { return number }
            bodies.append(body)
            numbers[body] = bodies.count - 1
            return bodies.count - 1
        }
    }

    /// The attribute and relationship builders of a model of several versions.
    private struct PropertyBuilders {
        var attributes = Builders()
        var relationships = Builders()
    }

    /// The body of a function returning what `built` builds.
    private func returning(_ built: (setup: [String], expression: String)) -> [String] {
        built.setup.isEmpty ? [built.expression] : built.setup + ["return \(built.expression)"]
    }

    /// The body of a function building `model` from the entity and composite builders numbered.
    private func modelBody(_ model: ManagedObjectModel, entities: [Int], composites: [Int]) -> [String] {
        var settings: [String] = []
        if !composites.isEmpty {
            settings.append("model.composites = [\(composites.map { "composite\($0)()" }.joined(separator: ", "))]")
        }
        for template in model.fetchRequestTemplates {
            settings += block(fetchRequest(template, variable: "request"), appendingTo: "model.fetchRequestTemplates")
        }
        for configuration in model.configurations {
            let built = build(
                "\(qualify("ModelConfiguration"))(name: \(literal(configuration.name)), memberEntityNames: "
                    + "\(stringArray(configuration.memberEntityNames)))",
                variable: "configuration", settings: configuration.isUsedWithCloudKit ? ["isUsedWithCloudKit = true"] : [])
            settings += block(built, appendingTo: "model.configurations")
        }
        if let value = model.versionIdentifier { settings.append("model.versionIdentifier = \(literal(value))") }
        if let value = model.versionName { settings.append("model.versionName = \(literal(value))") }
        let tool = model.toolInfo
        if let value = tool.lastSavedToolsVersion { settings.append("model.toolInfo.lastSavedToolsVersion = \(literal(value))") }
        if let value = tool.systemVersion { settings.append("model.toolInfo.systemVersion = \(literal(value))") }
        if let value = tool.minimumToolsVersion { settings.append("model.toolInfo.minimumToolsVersion = \(literal(value))") }
        if let value = tool.sourceLanguage { settings.append("model.toolInfo.sourceLanguage = \(literal(value))") }
        if tool.isUsedWithCloudKit { settings.append("model.toolInfo.isUsedWithCloudKit = true") }
        if tool.isUsedWithSwiftData { settings.append("model.toolInfo.isUsedWithSwiftData = true") }
        let creation = "\(qualify("ManagedObjectModel"))(entities: [\(entities.map { "entity\($0)()" }.joined(separator: ", "))])"
        guard !settings.isEmpty else { return [creation] }
        return ["var model = \(creation)"] + settings + ["return model"]
    }

    private func compositeBody(_ composite: CompositeDescription) -> [String] {
        let creation = "\(qualify("CompositeDescription"))(name: \(literal(composite.name)), attributes: [])"
        guard !composite.attributes.isEmpty else { return [creation] }
        var lines = ["var composite = \(creation)"]
        for attribute in composite.attributes {
            lines += block(attributeBuild(attribute), appendingTo: "composite.attributes")
        }
        lines.append("return composite")
        return lines
    }

    // MARK: Entities

    /// The body of a function building `entity`; its attributes and relationships are built in place, or,
    /// with `sharing`, by the builders there (added when new).
    private func entityBody(_ entity: EntityDescription, sharing: inout PropertyBuilders?) -> [String] {
        var arguments = "name: \(literal(entity.name))"
        if let value = entity.representedClassName { arguments += ", representedClassName: \(literal(value))" }
        if let value = entity.parentEntityName { arguments += ", parentEntityName: \(literal(value))" }
        var body: [String] = []
        if entity.isAbstract { body.append("entity.isAbstract = true") }
        if let value = entity.codeGenerationType { body.append("entity.codeGenerationType = .\(value)") }
        if let value = entity.renamingIdentifier { body.append("entity.renamingIdentifier = \(literal(value))") }
        if let value = entity.versionHashModifier { body.append("entity.versionHashModifier = \(literal(value))") }
        if var builders = sharing {
            if !entity.attributes.isEmpty {
                let calls = entity.attributes.map { "attribute\(builders.attributes.index(of: returning(attributeBuild($0))))()" }
                body.append("entity.attributes = [\(calls.joined(separator: ", "))]")
            }
            if !entity.relationships.isEmpty {
                let calls = entity.relationships.map {
                    "relationship\(builders.relationships.index(of: returning(relationshipBuild($0))))()"
                }
                body.append("entity.relationships = [\(calls.joined(separator: ", "))]")
            }
            sharing = builders
        } else {
            for attribute in entity.attributes { body += block(attributeBuild(attribute), appendingTo: "entity.attributes") }
            for relationship in entity.relationships { body += block(relationshipBuild(relationship), appendingTo: "entity.relationships") }
        }
        for fetched in entity.fetchedProperties {
            let (requestSetup, request) = fetchRequest(fetched.fetchRequest, variable: "request")
            var settings: [String] = []
            if fetched.isOptional { settings.append("isOptional = true") }
            if !fetched.userInfo.isEmpty { settings.append("userInfo = \(userInfo(fetched.userInfo))") }
            let (setup, expression) = build(
                "\(qualify("FetchedPropertyDescription"))(name: \(literal(fetched.name)), fetchRequest: \(request))",
                variable: "fetched", settings: settings)
            body += block((requestSetup + setup, expression), appendingTo: "entity.fetchedProperties")
        }
        for fetchIndex in entity.fetchIndexes { body.append("entity.fetchIndexes.append(\(fetchIndexExpression(fetchIndex)))") }
        for fetchIndex in entity.compoundIndexes { body.append("entity.compoundIndexes.append(\(fetchIndexExpression(fetchIndex)))") }
        for constraint in entity.uniquenessConstraints {
            body.append("entity.uniquenessConstraints.append(\(qualify("UniquenessConstraint"))(properties: \(stringArray(constraint.properties))))")
        }
        if !entity.userInfo.isEmpty { body.append("entity.userInfo = \(userInfo(entity.userInfo))") }

        let creation = "\(qualify("EntityDescription"))(\(arguments))"
        guard !body.isEmpty else { return [creation] }
        return ["var entity = \(creation)"] + body + ["return entity"]
    }

    private func attributeBuild(_ attribute: AttributeDescription) -> (setup: [String], expression: String) {
        var arguments = "name: \(literal(attribute.name)), type: .\(attribute.type)"
        if attribute.isOptional { arguments += ", isOptional: true" }
        var settings: [String] = []
        if attribute.isTransient { settings.append("isTransient = true") }
        if let value = attribute.defaultValueString { settings.append("defaultValueString = \(literal(value))") }
        if let value = attribute.defaultDateTimeInterval { settings.append("defaultDateTimeInterval = \(double(value))") }
        if let value = attribute.minValueString { settings.append("minValueString = \(literal(value))") }
        if let value = attribute.maxValueString { settings.append("maxValueString = \(literal(value))") }
        if let value = attribute.minDateTimeInterval { settings.append("minDateTimeInterval = \(double(value))") }
        if let value = attribute.maxDateTimeInterval { settings.append("maxDateTimeInterval = \(double(value))") }
        if let value = attribute.regularExpression { settings.append("regularExpression = \(literal(value))") }
        if attribute.isIndexed { settings.append("isIndexed = true") }
        if let value = attribute.usesScalarValueType { settings.append("usesScalarValueType = \(value)") }
        if attribute.allowsExternalBinaryDataStorage { settings.append("allowsExternalBinaryDataStorage = true") }
        if let value = attribute.valueTransformerName { settings.append("valueTransformerName = \(literal(value))") }
        if let value = attribute.customClassName { settings.append("customClassName = \(literal(value))") }
        if attribute.isDerived { settings.append("isDerived = true") }
        if let value = attribute.derivationExpression { settings.append("derivationExpression = \(literal(value))") }
        if let value = attribute.compositeName { settings.append("compositeName = \(literal(value))") }
        if attribute.preservesValueInHistoryOnDeletion { settings.append("preservesValueInHistoryOnDeletion = true") }
        if attribute.isIndexedBySpotlight { settings.append("isIndexedBySpotlight = true") }
        if attribute.isStoredInExternalRecord { settings.append("isStoredInExternalRecord = true") }
        if attribute.allowsCloudEncryption { settings.append("allowsCloudEncryption = true") }
        if let value = attribute.renamingIdentifier { settings.append("renamingIdentifier = \(literal(value))") }
        if let value = attribute.versionHashModifier { settings.append("versionHashModifier = \(literal(value))") }
        if !attribute.userInfo.isEmpty { settings.append("userInfo = \(userInfo(attribute.userInfo))") }
        return build("\(qualify("AttributeDescription"))(\(arguments))", variable: "attribute", settings: settings)
    }

    private func relationshipBuild(_ relationship: RelationshipDescription) -> (setup: [String], expression: String) {
        var arguments = "name: \(literal(relationship.name)), destinationEntityName: \(literal(relationship.destinationEntityName))"
        if let value = relationship.inverseName { arguments += ", inverseName: \(literal(value))" }
        if let value = relationship.inverseEntityName { arguments += ", inverseEntityName: \(literal(value))" }
        if relationship.isToMany { arguments += ", isToMany: true" }
        var settings: [String] = []
        if relationship.isOptional { settings.append("isOptional = true") }
        if relationship.isTransient { settings.append("isTransient = true") }
        if relationship.isOrdered { settings.append("isOrdered = true") }
        if let value = relationship.minCount { settings.append("minCount = \(value)") }
        if let value = relationship.maxCount { settings.append("maxCount = \(value)") }
        if relationship.deleteRule != .nullify { settings.append("deleteRule = .\(relationship.deleteRule)") }
        if relationship.isIndexed { settings.append("isIndexed = true") }
        if relationship.isIndexedBySpotlight { settings.append("isIndexedBySpotlight = true") }
        if relationship.isStoredInExternalRecord { settings.append("isStoredInExternalRecord = true") }
        if let value = relationship.renamingIdentifier { settings.append("renamingIdentifier = \(literal(value))") }
        if let value = relationship.versionHashModifier { settings.append("versionHashModifier = \(literal(value))") }
        if !relationship.userInfo.isEmpty { settings.append("userInfo = \(userInfo(relationship.userInfo))") }
        return build("\(qualify("RelationshipDescription"))(\(arguments))", variable: "relationship", settings: settings)
    }

    private func fetchRequest(_ template: FetchRequestTemplate, variable: String) -> (setup: [String], expression: String) {
        var arguments = "name: \(literal(template.name)), entityName: \(literal(template.entityName))"
        if let value = template.predicateString { arguments += ", predicateString: \(literal(value))" }
        var settings: [String] = []
        if let value = template.fetchLimit { settings.append("fetchLimit = \(value)") }
        if let value = template.fetchBatchSize { settings.append("fetchBatchSize = \(value)") }
        if template.resultType != .managedObject { settings.append("resultType = .\(template.resultType)") }
        if let value = template.includesSubentities { settings.append("includesSubentities = \(value)") }
        if let value = template.includesPropertyValues { settings.append("includesPropertyValues = \(value)") }
        if let value = template.includesPendingChanges { settings.append("includesPendingChanges = \(value)") }
        if let value = template.returnsObjectsAsFaults { settings.append("returnsObjectsAsFaults = \(value)") }
        if let value = template.returnsDistinctResults { settings.append("returnsDistinctResults = \(value)") }
        return build("\(qualify("FetchRequestTemplate"))(\(arguments))", variable: variable, settings: settings)
    }

    private func fetchIndexExpression(_ fetchIndex: FetchIndex) -> String {
        let elements = fetchIndex.elements.map { element -> String in
            var text: String
            if let property = element.property {
                text = "\(qualify("FetchIndex")).Element(property: \(literal(property))"
            } else {
                let type = element.expressionType.map(literal) ?? "nil"
                text = "\(qualify("FetchIndex")).Element(expression: \(literal(element.expression ?? "")), expressionType: \(type)"
            }
            if element.kind != .binary { text += ", kind: .\(element.kind)" }
            if !element.isAscending { text += ", isAscending: false" }
            return text + ")"
        }
        return "\(qualify("FetchIndex"))(name: \(literal(fetchIndex.name)), elements: [\(elements.joined(separator: ", "))])"
    }

    // MARK: Building blocks

    /// A value built by an initializer and then `settings` (each `property = value`): the lines that
    /// set it up and the expression that gives it. Without settings, the initializer alone.
    private func build(_ creation: String, variable: String, settings: [String]) -> (setup: [String], expression: String) {
        guard !settings.isEmpty else { return ([], creation) }
        return (["var \(variable) = \(creation)"] + settings.map { "\(variable).\($0)" }, variable)
    }

    /// `target.append(expression)`, inside a `do` block when the value needs set-up lines (so that
    /// their variables do not clash with the next value's).
    private func block(_ built: (setup: [String], expression: String), appendingTo target: String) -> [String] {
        guard !built.setup.isEmpty else { return ["\(target).append(\(built.expression))"] }
        return ["do {"] + built.setup.map { indent + $0 } + ["\(indent)\(target).append(\(built.expression))", "}"]
    }

    private func literal(_ text: String) -> String { SwiftSourceWriter.stringLiteral(text) }

    private func stringArray(_ values: [String]) -> String {
        "[" + values.map(literal).joined(separator: ", ") + "]"
    }

    private func userInfo(_ info: UserInfo) -> String {
        "[" + info.map { "\(literal($0.key)): \(literal($0.value))" }.joined(separator: ", ") + "]"
    }

    /// A Double literal that reads back as the same value (Swift prints the shortest such text).
    private func double(_ value: Double) -> String {
        if value.isNaN { return "\(qualify("Double")).nan" }
        if value.isInfinite { return value < 0 ? "-\(qualify("Double")).infinity" : "\(qualify("Double")).infinity" }
        return "\(value)"
    }

    private func commentSafe(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
