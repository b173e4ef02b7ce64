/// Turns the XML tree of a `contents` file into a ``ManagedObjectModel``.
///
/// Reading is lenient where Xcode's own files vary (booleans as YES/NO/true/false, numbers like `0.0`
/// on integers) and strict where a value has no sensible meaning (an unknown attribute type, a
/// non-numeric count). Unknown elements and attributes are kept out of the model with a warning, since
/// new Xcode releases keep adding them.
struct ModelParser {
    private var collector: DiagnosticCollector

    init(file: String) {
        collector = DiagnosticCollector(file: file)
    }

    /// Parses the document; returns the model and every problem found.
    static func parse(_ root: XMLElementNode, file: String) -> (ManagedObjectModel, [ModelDiagnostic]) {
        var parser = ModelParser(file: file)
        let model = parser.model(from: root)
        return (model, parser.collector.diagnostics)
    }

    // MARK: - Known vocabulary

    private static let modelKeys: Set<String> = [
        "type", "documentVersion", "lastSavedToolsVersion", "systemVersion", "minimumToolsVersion", "sourceLanguage",
        "userDefinedModelVersionIdentifier", "name", "macOSVersion", "iOSVersion", "usedWithSwiftData", "usedWithCloudKit",
    ]
    private static let entityKeys: Set<String> = [
        "name", "representedClassName", "parentEntity", "syncable", "isAbstract", "versionHashModifier", "elementID",
        "codeGenerationType",
    ]
    private static let attributeKeys: Set<String> = [
        "name", "optional", "attributeType", "minValueString", "maxValueString", "usesScalarValueType", "transient",
        "syncable", "valueTransformerName", "defaultValueString", "spotlightIndexingEnabled", "minDateTimeInterval",
        "maxDateTimeInterval", "regularExpressionString", "indexed", "customClassName", "composite",
        "allowsExternalBinaryDataStorage", "derived", "derivationExpression", "storedInTruthFile",
        "defaultDateTimeInterval", "versionHashModifier", "elementID", "allowsCloudEncryption", "preserveAfterDeletion",
    ]
    private static let relationshipKeys: Set<String> = [
        "name", "optional", "toMany", "deletionRule", "destinationEntity", "inverseName", "inverseEntity", "maxCount",
        "minCount", "ordered", "syncable", "transient", "spotlightIndexingEnabled", "storedInTruthFile", "indexed",
        "elementID", "versionHashModifier",
    ]
    private static let fetchRequestKeys: Set<String> = [
        "name", "entity", "predicateString", "fetchLimit", "fetchBatchSize", "resultType", "includeSubentities",
        "includePropertyValues", "includesPendingChanges", "returnObjectsAsFaults", "returnDistinctResults",
    ]

    // MARK: - Elements

    private mutating func model(from root: XMLElementNode) -> ManagedObjectModel {
        var model = ManagedObjectModel(entities: [])
        guard root.name == "model" else {
            collector.error("the root element is <\(root.name)>, expected <model>", line: root.line)
            return model
        }
        checkKeys(root, Self.modelKeys)
        var info = ManagedObjectModel.ToolInfo()
        info.lastSavedToolsVersion = root.attribute("lastSavedToolsVersion")
        info.systemVersion = root.attribute("systemVersion")
        info.minimumToolsVersion = root.attribute("minimumToolsVersion")
        info.sourceLanguage = root.attribute("sourceLanguage")
        info.isUsedWithCloudKit = flag(root, "usedWithCloudKit")
        info.isUsedWithSwiftData = flag(root, "usedWithSwiftData")
        model.toolInfo = info
        if let identifier = root.attribute("userDefinedModelVersionIdentifier"), !identifier.isEmpty {
            model.versionIdentifier = identifier
        }
        var entities: [EntityDescription] = []
        for child in root.children {
            switch child.name {
            case "entity":
                if let entity = entity(from: child) { entities.append(entity) }
            case "composite":
                if let name = required(child, "name") {
                    checkKeys(child, ["name"])
                    var composite = CompositeDescription(
                        name: name, attributes: child.children(named: "attribute").compactMap { attribute(from: $0) })
                    composite.location = collector.location(child.line)
                    warnUnexpectedChildren(child, allowed: ["attribute"])
                    model.composites.append(composite)
                }
            case "fetchRequest":
                if let template = fetchRequest(from: child) { model.fetchRequestTemplates.append(template) }
            case "configuration":
                if let configuration = configuration(from: child) { model.configurations.append(configuration) }
            case "elements":
                break  // diagram layout: no model meaning
            default:
                collector.warning("unknown element <\(child.name)> in <model> ignored", line: child.line)
            }
        }
        model.entities = entities
        return model
    }

    private mutating func entity(from element: XMLElementNode) -> EntityDescription? {
        guard let name = required(element, "name") else { return nil }
        checkKeys(element, Self.entityKeys)
        var entity = EntityDescription(
            name: name,
            representedClassName: element.attribute("representedClassName"),
            parentEntityName: nonEmpty(element.attribute("parentEntity")))
        entity.location = collector.location(element.line)
        entity.isAbstract = flag(element, "isAbstract")
        entity.renamingIdentifier = nonEmpty(element.attribute("elementID"))
        entity.versionHashModifier = nonEmpty(element.attribute("versionHashModifier"))
        if let generation = element.attribute("codeGenerationType"), !generation.isEmpty {
            if let type = CodeGenerationType(rawValue: generation) {
                entity.codeGenerationType = type
            } else {
                collector.error(
                    "unknown codeGenerationType '\(generation)' on entity '\(name)' (expected class or category)",
                    line: element.line)
            }
        }
        for child in element.children {
            switch child.name {
            case "attribute":
                if let attribute = attribute(from: child) { entity.attributes.append(attribute) }
            case "relationship":
                if let relationship = relationship(from: child) { entity.relationships.append(relationship) }
            case "fetchedProperty":
                if let property = fetchedProperty(from: child) { entity.fetchedProperties.append(property) }
            case "fetchIndex":
                if let index = fetchIndex(from: child) { entity.fetchIndexes.append(index) }
            case "compoundIndexes":
                warnUnexpectedChildren(child, allowed: ["compoundIndex"])
                for compound in child.children(named: "compoundIndex") {
                    var index = FetchIndex(
                        name: "", elements: values(of: compound, element: "index").map { FetchIndex.Element(property: $0) })
                    index.location = collector.location(compound.line)
                    entity.compoundIndexes.append(index)
                }
            case "uniquenessConstraints":
                warnUnexpectedChildren(child, allowed: ["uniquenessConstraint"])
                for element in child.children(named: "uniquenessConstraint") {
                    var constraint = UniquenessConstraint(properties: values(of: element, element: "constraint"))
                    constraint.location = collector.location(element.children.first?.line ?? element.line)
                    entity.uniquenessConstraints.append(constraint)
                }
            case "userInfo":
                entity.userInfo = userInfo(from: child)
            default:
                collector.warning("unknown element <\(child.name)> in entity '\(name)' ignored", line: child.line)
            }
        }
        return entity
    }

    private mutating func attribute(from element: XMLElementNode) -> AttributeDescription? {
        guard let name = required(element, "name") else { return nil }
        checkKeys(element, Self.attributeKeys)
        var type = AttributeType.undefined
        if let written = element.attribute("attributeType") {
            if let known = AttributeType(rawValue: written) {
                type = known
            } else {
                let expected = AttributeType.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
                collector.error(
                    "attribute '\(name)' has unknown type '\(written)' (expected one of \(expected))", line: element.line)
            }
        }
        var attribute = AttributeDescription(name: name, type: type, isOptional: flag(element, "optional"))
        attribute.location = collector.location(element.line)
        attribute.isTransient = flag(element, "transient")
        attribute.defaultValueString = element.attribute("defaultValueString")
        attribute.defaultDateTimeInterval = number(element, "defaultDateTimeInterval")
        attribute.minValueString = nonEmpty(element.attribute("minValueString"))
        attribute.maxValueString = nonEmpty(element.attribute("maxValueString"))
        attribute.minDateTimeInterval = number(element, "minDateTimeInterval")
        attribute.maxDateTimeInterval = number(element, "maxDateTimeInterval")
        attribute.regularExpression = nonEmpty(element.attribute("regularExpressionString"))
        attribute.isIndexed = flag(element, "indexed")
        attribute.usesScalarValueType = element.attribute("usesScalarValueType").map { _ in flag(element, "usesScalarValueType") }
        attribute.allowsExternalBinaryDataStorage = flag(element, "allowsExternalBinaryDataStorage")
        attribute.valueTransformerName = nonEmpty(element.attribute("valueTransformerName"))
        attribute.customClassName = nonEmpty(element.attribute("customClassName"))
        attribute.isDerived = flag(element, "derived")
        attribute.derivationExpression = nonEmpty(element.attribute("derivationExpression"))
        attribute.compositeName = nonEmpty(element.attribute("composite"))
        attribute.preservesValueInHistoryOnDeletion = flag(element, "preserveAfterDeletion")
        attribute.isIndexedBySpotlight = flag(element, "spotlightIndexingEnabled")
        attribute.isStoredInExternalRecord = flag(element, "storedInTruthFile")
        attribute.allowsCloudEncryption = flag(element, "allowsCloudEncryption")
        attribute.renamingIdentifier = nonEmpty(element.attribute("elementID"))
        attribute.versionHashModifier = nonEmpty(element.attribute("versionHashModifier"))
        for child in element.children {
            if child.name == "userInfo" {
                attribute.userInfo = userInfo(from: child)
            } else {
                collector.warning("unknown element <\(child.name)> in attribute '\(name)' ignored", line: child.line)
            }
        }
        return attribute
    }

    private mutating func relationship(from element: XMLElementNode) -> RelationshipDescription? {
        guard let name = required(element, "name") else { return nil }
        checkKeys(element, Self.relationshipKeys)
        guard let destination = required(element, "destinationEntity", of: "relationship '\(name)'") else { return nil }
        var relationship = RelationshipDescription(
            name: name,
            destinationEntityName: destination,
            inverseName: nonEmpty(element.attribute("inverseName")),
            inverseEntityName: nonEmpty(element.attribute("inverseEntity")),
            isToMany: flag(element, "toMany"))
        relationship.location = collector.location(element.line)
        relationship.isOptional = flag(element, "optional")
        relationship.isTransient = flag(element, "transient")
        relationship.isOrdered = flag(element, "ordered")
        relationship.minCount = integer(element, "minCount")
        relationship.maxCount = integer(element, "maxCount")
        relationship.isIndexed = flag(element, "indexed")
        relationship.isIndexedBySpotlight = flag(element, "spotlightIndexingEnabled")
        relationship.isStoredInExternalRecord = flag(element, "storedInTruthFile")
        relationship.renamingIdentifier = nonEmpty(element.attribute("elementID"))
        relationship.versionHashModifier = nonEmpty(element.attribute("versionHashModifier"))
        if let rule = element.attribute("deletionRule") {
            if let known = DeleteRule(rawValue: rule) {
                relationship.deleteRule = known
            } else {
                collector.error(
                    "relationship '\(name)' has unknown deletionRule '\(rule)' (expected Nullify, Cascade, Deny or No Action)",
                    line: element.line)
            }
        }
        for child in element.children {
            if child.name == "userInfo" {
                relationship.userInfo = userInfo(from: child)
            } else {
                collector.warning("unknown element <\(child.name)> in relationship '\(name)' ignored", line: child.line)
            }
        }
        return relationship
    }

    private mutating func fetchedProperty(from element: XMLElementNode) -> FetchedPropertyDescription? {
        guard let name = required(element, "name") else { return nil }
        checkKeys(element, ["name", "optional", "syncable"])
        let requests = element.children(named: "fetchRequest")
        guard requests.count == 1, let request = fetchRequest(from: requests[0]) else {
            if requests.count != 1 {
                collector.error(
                    "fetched property '\(name)' must hold exactly one <fetchRequest> (found \(requests.count))",
                    line: element.line)
            }
            return nil
        }
        var property = FetchedPropertyDescription(name: name, fetchRequest: request)
        property.location = collector.location(element.line)
        property.isOptional = flag(element, "optional")
        if let info = element.children(named: "userInfo").first { property.userInfo = userInfo(from: info) }
        warnUnexpectedChildren(element, allowed: ["fetchRequest", "userInfo"])
        return property
    }

    private mutating func fetchRequest(from element: XMLElementNode) -> FetchRequestTemplate? {
        guard let name = required(element, "name") else { return nil }
        checkKeys(element, Self.fetchRequestKeys)
        guard let entity = required(element, "entity", of: "fetch request '\(name)'") else { return nil }
        var template = FetchRequestTemplate(
            name: name, entityName: entity, predicateString: nonEmpty(element.attribute("predicateString")))
        template.location = collector.location(element.line)
        template.fetchLimit = integer(element, "fetchLimit")
        template.fetchBatchSize = integer(element, "fetchBatchSize")
        if let code = integer(element, "resultType") {
            if let type = FetchRequestTemplate.ResultType(rawValue: code) {
                template.resultType = type
            } else {
                collector.error(
                    "fetch request '\(name)' has unknown resultType \(code) (expected 0, 1, 2 or 4)", line: element.line)
            }
        }
        template.includesSubentities = optionalFlag(element, "includeSubentities")
        template.includesPropertyValues = optionalFlag(element, "includePropertyValues")
        template.includesPendingChanges = optionalFlag(element, "includesPendingChanges")
        template.returnsObjectsAsFaults = optionalFlag(element, "returnObjectsAsFaults")
        template.returnsDistinctResults = optionalFlag(element, "returnDistinctResults")
        warnUnexpectedChildren(element, allowed: [])
        return template
    }

    private mutating func fetchIndex(from element: XMLElementNode) -> FetchIndex? {
        guard let name = required(element, "name") else { return nil }
        checkKeys(element, ["name"])
        var elements: [FetchIndex.Element] = []
        for child in element.children(named: "fetchIndexElement") {
            checkKeys(child, ["property", "type", "order", "expression", "expressionType"])
            var kind = FetchIndex.Element.Kind.binary
            if let written = child.attribute("type") {
                if let known = FetchIndex.Element.Kind(rawValue: written) {
                    kind = known
                } else {
                    collector.error("fetch index '\(name)' has unknown type '\(written)' (expected Binary or RTree)", line: child.line)
                }
            }
            var ascending = true
            if let order = child.attribute("order") {
                switch order {
                case "ascending": ascending = true
                case "descending": ascending = false
                default:
                    collector.error(
                        "fetch index '\(name)' has unknown order '\(order)' (expected ascending or descending)", line: child.line)
                }
            }
            if let property = nonEmpty(child.attribute("property")) {
                elements.append(FetchIndex.Element(property: property, kind: kind, isAscending: ascending))
            } else if let expression = nonEmpty(child.attribute("expression")) {
                elements.append(
                    FetchIndex.Element(
                        expression: expression, expressionType: child.attribute("expressionType"), kind: kind,
                        isAscending: ascending))
            } else {
                collector.error("fetch index '\(name)' has an element with neither a property nor an expression", line: child.line)
            }
        }
        warnUnexpectedChildren(element, allowed: ["fetchIndexElement"])
        var index = FetchIndex(name: name, elements: elements)
        index.location = collector.location(element.line)
        return index
    }

    private mutating func configuration(from element: XMLElementNode) -> ModelConfiguration? {
        guard let name = required(element, "name") else { return nil }
        checkKeys(element, ["name", "usedWithCloudKit"])
        var configuration = ModelConfiguration(
            name: name, memberEntityNames: element.children(named: "memberEntity").compactMap { required($0, "name") })
        configuration.isUsedWithCloudKit = flag(element, "usedWithCloudKit")
        configuration.location = collector.location(element.line)
        warnUnexpectedChildren(element, allowed: ["memberEntity"])
        return configuration
    }

    private mutating func userInfo(from element: XMLElementNode) -> UserInfo {
        var info = UserInfo()
        for entry in element.children(named: "entry") {
            if let key = required(entry, "key") {
                info[key] = entry.attribute("value") ?? ""
            }
        }
        warnUnexpectedChildren(element, allowed: ["entry"])
        return info
    }

    /// The `value` attributes of an element's children (constraints and legacy compound indexes).
    private mutating func values(of element: XMLElementNode, element childName: String) -> [String] {
        warnUnexpectedChildren(element, allowed: [childName])
        return element.children(named: childName).compactMap { required($0, "value") }
    }

    // MARK: - Values

    private mutating func required(_ element: XMLElementNode, _ key: String, of owner: String? = nil) -> String? {
        if let value = element.attribute(key), !value.isEmpty { return value }
        let what = owner ?? "<\(element.name)>"
        collector.error("\(what) has no '\(key)'", line: element.line)
        return nil
    }

    private func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }

    private mutating func flag(_ element: XMLElementNode, _ key: String) -> Bool {
        optionalFlag(element, key) ?? false
    }

    private mutating func optionalFlag(_ element: XMLElementNode, _ key: String) -> Bool? {
        guard let written = element.attribute(key) else { return nil }
        switch written.lowercased() {
        case "yes", "true", "1": return true
        case "no", "false", "0", "": return false
        default:
            collector.error("'\(key)' is '\(written)', expected YES or NO", line: element.line)
            return nil
        }
    }

    private mutating func integer(_ element: XMLElementNode, _ key: String) -> Int? {
        guard let written = element.attribute(key), !written.isEmpty else { return nil }
        if let value = Int(written.trimmingWhitespace) { return value }
        collector.error("'\(key)' is '\(written)', expected a whole number", line: element.line)
        return nil
    }

    private mutating func number(_ element: XMLElementNode, _ key: String) -> Double? {
        guard let written = element.attribute(key), !written.isEmpty else { return nil }
        if let value = Double(written.trimmingWhitespace), value.isFinite { return value }
        collector.error("'\(key)' is '\(written)', expected a number", line: element.line)
        return nil
    }

    private mutating func checkKeys(_ element: XMLElementNode, _ known: Set<String>) {
        for attribute in element.attributes where !known.contains(attribute.name) {
            collector.warning("unknown attribute '\(attribute.name)' on <\(element.name)> ignored", line: element.line)
        }
    }

    private mutating func warnUnexpectedChildren(_ element: XMLElementNode, allowed: Set<String>) {
        for child in element.children where !allowed.contains(child.name) {
            collector.warning("unknown element <\(child.name)> in <\(element.name)> ignored", line: child.line)
        }
    }
}
