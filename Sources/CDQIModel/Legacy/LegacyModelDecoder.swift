/// Decodes an Xcode 3 model (`elements`: a keyed archive of `XDPMModel`) into a ``ManagedObjectModel``.
///
/// The archive holds Xcode's UML-style document: a model package whose classes bucket lists the
/// entities (`XDPMEntity`); each entity owns attributes (`XDPMAttribute`) and relationships
/// (`XDPMRelationship`) and names its parent through a generalization. Every Core Data setting lives in
/// a "stereotype" (``LegacySettings``). The decoder follows references one at a time and never
/// recurses through the object graph, so a hostile archive cannot make it loop.
///
/// Not decoded, with a warning when present: fetch request templates, configurations, compound
/// indexes, uniqueness constraints, fetched properties, and `userInfo` values that are not strings
/// (Sync Services stores dictionaries and arrays there, which model files cannot express).
struct LegacyModelDecoder {
    /// The largest `elements` file decoded; the largest real one seen is 388 KB.
    static let maximumSize = 16 << 20

    private let archive: KeyedArchive
    private let location: SourceLocation
    private var diagnostics: [ModelDiagnostic] = []
    private var droppedUserInfoEntries = 0
    /// How many more collection elements may be visited. Xcode's archives visit each object a few
    /// times; an archive that lists shared objects over and over (to make the work quadratic) runs out.
    private var budget: Int

    /// Decodes `bytes`, the contents of the `elements` file at `file`.
    ///
    /// - Returns: the model, and the problems found in it (errors for settings Core Data would refuse,
    ///   warnings for what was not decoded), all located at `file` (line 0: a binary file has no lines).
    static func decode(
        _ bytes: [UInt8], file: String
    ) throws(LegacyModelError) -> (model: ManagedObjectModel, diagnostics: [ModelDiagnostic]) {
        guard bytes.count <= maximumSize else {
            throw .notAModelArchive("the file is \(bytes.count) bytes, over the \(maximumSize)-byte limit for Xcode 3 models")
        }
        let plist: PropertyListValue
        do {
            plist = try BinaryPropertyListReader.parse(bytes)
        } catch {
            throw .propertyList(error)
        }
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(plist)
        } catch {
            throw .notAModelArchive("\(error)")
        }
        var decoder = LegacyModelDecoder(archive: archive, location: SourceLocation(file: file, line: 0))
        let model = try decoder.decodeModel()
        return (model, decoder.diagnostics)
    }

    private init(archive: KeyedArchive, location: SourceLocation) {
        self.archive = archive
        self.location = location
        budget = 8 * archive.objects.count + 10_000
    }

    // MARK: Model and entities

    private mutating func decodeModel() throws(LegacyModelError) -> ManagedObjectModel {
        guard let root = try object(archive.top["root"]) else { throw .notAModelArchive("the archive has no root object") }
        guard root.className == "XDPMModel" else {
            throw .notAModelArchive("the root object is a \(root.className), not an XDPMModel")
        }
        guard let package = try object(root["_xd_rootPackage"]), package.className == "XDModelPackage" else {
            throw .malformedModel("the model has no root package (XDModelPackage)")
        }
        let nested = try entries(package["XDBucketForPackagesstorage"]).count
        if nested > 0 { warn("the model holds \(nested) nested package(s), which are not read") }

        var entities: [EntityDescription] = []
        for (_, value) in try entries(package["XDBucketForClassesstorage"]) {
            guard let entity = try object(value) else { continue }
            guard entity.className == "XDPMEntity" else {
                warn("the model's classes hold a \(entity.className), which is not an entity; it is ignored")
                continue
            }
            entities.append(try decodeEntity(entity))
        }
        entities.sort { Self.precedes($0.name, $1.name) }

        var model = ManagedObjectModel(entities: entities)
        if let identifier = try string(root["_modelVersionIdentifier"]), !identifier.isEmpty {
            model.versionIdentifier = identifier
        }
        let configurations = try entries(root["_configurationsByName"]).count
        if configurations > 0 { warn("the model's \(configurations) configuration(s) are not decoded") }
        if droppedUserInfoEntries > 0 {
            warn(
                "\(droppedUserInfoEntries) userInfo value(s) are dictionaries or arrays (Sync Services settings), which model files cannot express; they were dropped"
            )
        }
        return model
    }

    private mutating func decodeEntity(_ object: ArchivedObject) throws(LegacyModelError) -> EntityDescription {
        let name = try requiredName(of: object, kind: "entity")
        let settings = try self.settings(of: object, owner: "entity '\(name)'")
        var entity = EntityDescription(name: name, representedClassName: try string(settings["XD_PSK_entityClassName"]))
        entity.location = location
        // The stereotype's flag is what Xcode 3 edits; the UML class's own flag is the fallback.
        if let abstract = try flag(settings, "XD_PSK_isAbstract", of: name) {
            entity.isAbstract = abstract
        } else {
            entity.isAbstract = try flag(object["_isAbstract"], "_isAbstract", of: name) ?? false
        }
        entity.versionHashModifier = nonEmpty(try string(settings["XD_PSK_versionHashModifier"]))
        entity.renamingIdentifier = nonEmpty(try string(settings["XD_PSK_elementID"]))
        entity.userInfo = try userInfo(settings["XD_PSK_userInfo"])

        var parents: [String] = []
        for value in try elements(object["XDBucketForGeneralizationsstorage"]) {
            guard let generalization = try self.object(value) else { continue }
            guard let parent = try self.object(generalization["_general"]) else {
                throw .malformedModel("entity '\(name)' has a generalization without a parent entity")
            }
            parents.append(try requiredName(of: parent, kind: "parent entity"))
        }
        if parents.count > 1 {
            error("entity '\(name)' has \(parents.count) parent entities (\(parents.joined(separator: ", "))); Core Data allows one")
        }
        entity.parentEntityName = parents.first

        for (key, label) in [
            ("XD_PSK_fetchRequestsArray", "fetch request template(s)"), ("XDPMCompoundIndexes", "compound index(es)"),
            ("XDPMUniquenessConstraints", "uniqueness constraint(s)"),
        ] {
            let count = try collectionCount(settings[key])
            if count > 0 { warn("entity '\(name)': \(count) \(label) are not decoded") }
        }

        for (_, value) in try entries(object["XDBucketForOwnedAttributesstorage"]) {
            guard let property = try self.object(value) else { continue }
            switch property.className {
            case "XDPMAttribute":
                entity.attributes.append(try decodeAttribute(property, of: name))
            case "XDPMRelationship":
                entity.relationships.append(try decodeRelationship(property, of: name))
            default:
                let propertyName = try string(property["_name"]) ?? "?"
                warn("entity '\(name)': property '\(propertyName)' is a \(property.className), which is not decoded")
            }
        }
        entity.attributes.sort { Self.precedes($0.name, $1.name) }
        entity.relationships.sort { Self.precedes($0.name, $1.name) }
        return entity
    }

    // MARK: Properties

    private mutating func decodeAttribute(
        _ object: ArchivedObject, of entity: String
    ) throws(LegacyModelError) -> AttributeDescription {
        let name = try requiredName(of: object, kind: "attribute of entity '\(entity)'")
        let label = "\(entity).\(name)"
        let settings = try self.settings(of: object, owner: "attribute '\(label)'")
        var type = AttributeType.undefined
        if let code = try integer(settings, "XD_PAttK_attributeType", of: label) {
            if let known = AttributeType(code: code) {
                type = known
            } else {
                error("attribute '\(label)' has unknown attribute type code \(code)")
            }
        }
        var attribute = AttributeDescription(name: name, type: type)
        attribute.location = location
        attribute.isOptional = try flag(settings, "XD_PPSK_isOptional", of: label) ?? true
        attribute.isTransient = try flag(settings, "XD_PPSK_isTransient", of: label) ?? false
        attribute.isIndexed = try flag(settings, "XD_PPSK_isIndexed", of: label) ?? false
        attribute.isIndexedBySpotlight = try flag(settings, "XD_PPSK_isSpotlightIndexed", of: label) ?? false
        attribute.isStoredInExternalRecord = try flag(settings, "XD_PPSK_isStoredInTruthFile", of: label) ?? false
        attribute.allowsExternalBinaryDataStorage =
            try flag(settings, "XD_PAttK_allowsExternalBinaryDataStorage", of: label) ?? false
        attribute.defaultValueString = try string(settings["XD_PAttK_defaultValueAsString"])
        attribute.valueTransformerName = nonEmpty(try string(settings["XD_PAttK_valueTransformerName"]))
        attribute.minValueString = nonEmpty(try string(settings["XD_PAttK_minValueString"]))
        attribute.maxValueString = nonEmpty(try string(settings["XD_PAttK_maxValueString"]))
        attribute.regularExpression = nonEmpty(try string(settings["XD_PAttK_regularExpressionString"]))
        attribute.versionHashModifier = nonEmpty(try string(settings["XD_PPSK_versionHashModifier"]))
        attribute.renamingIdentifier = nonEmpty(try string(settings["XD_PPSK_elementID"]))
        attribute.userInfo = try userInfo(settings["XD_PPSK_userInfo"])
        return attribute
    }

    private mutating func decodeRelationship(
        _ object: ArchivedObject, of entity: String
    ) throws(LegacyModelError) -> RelationshipDescription {
        let name = try requiredName(of: object, kind: "relationship of entity '\(entity)'")
        let label = "\(entity).\(name)"
        let settings = try self.settings(of: object, owner: "relationship '\(label)'")
        var destination = ""
        if let target = try self.object(settings["XD_PRK_destination"]) {
            destination = try requiredName(of: target, kind: "destination of '\(label)'")
        } else {
            error("relationship '\(label)' has no destination entity")
        }
        var inverseName: String?, inverseEntity: String?
        if let inverse = try self.object(settings["XD_PRK_inverseRelationship"]) {
            inverseName = try requiredName(of: inverse, kind: "inverse of '\(label)'")
            inverseEntity = destination
            if let owner = try self.object(inverse["_owner"]) {
                inverseEntity = try requiredName(of: owner, kind: "owner of the inverse of '\(label)'")
            }
        }
        let isToMany = try flag(settings, "XD_PRK_isToMany", of: label) ?? false
        var relationship = RelationshipDescription(
            name: name, destinationEntityName: destination, inverseName: inverseName, inverseEntityName: inverseEntity,
            isToMany: isToMany)
        relationship.location = location
        relationship.isOrdered = try flag(settings, "XD_PRK_ordered", of: label) ?? false
        // Xcode 3 writes minCount 1 and maxCount 1 on every to-one, optional or not, and Core Data
        // hashes that minCount (checked against the stores these models wrote); 0 means "no limit".
        let minimum = try integer(settings, "XD_PRK_minCount", of: label) ?? 0
        let maximum = try integer(settings, "XD_PRK_maxCount", of: label) ?? 0
        relationship.minCount = minimum == 0 ? nil : minimum
        relationship.maxCount = isToMany ? (maximum == 0 ? nil : maximum) : (maximum == 0 ? 1 : maximum)
        let rule = try integer(settings, "XD_PRK_deleteRule", of: label) ?? 1
        switch rule {
        case 0: relationship.deleteRule = .noAction
        case 1: relationship.deleteRule = .nullify
        case 2: relationship.deleteRule = .cascade
        case 3: relationship.deleteRule = .deny
        default: error("relationship '\(label)' has unknown delete rule code \(rule) (expected 0 to 3)")
        }
        relationship.isOptional = try flag(settings, "XD_PPSK_isOptional", of: label) ?? true
        relationship.isTransient = try flag(settings, "XD_PPSK_isTransient", of: label) ?? false
        relationship.isIndexed = try flag(settings, "XD_PPSK_isIndexed", of: label) ?? false
        relationship.isIndexedBySpotlight = try flag(settings, "XD_PPSK_isSpotlightIndexed", of: label) ?? false
        relationship.isStoredInExternalRecord = try flag(settings, "XD_PPSK_isStoredInTruthFile", of: label) ?? false
        relationship.versionHashModifier = nonEmpty(try string(settings["XD_PPSK_versionHashModifier"]))
        relationship.renamingIdentifier = nonEmpty(try string(settings["XD_PPSK_elementID"]))
        relationship.userInfo = try userInfo(settings["XD_PPSK_userInfo"])
        return relationship
    }

    // MARK: Settings and values

    /// Every stereotype setting of an element, by key (`XD_PPSK_isOptional` → its `_default`, unresolved).
    private mutating func settings(of object: ArchivedObject, owner: String) throws(LegacyModelError) -> LegacySettings {
        var settings = LegacySettings()
        for (_, value) in try entries(object["XDBucketForStereotypesstorage"]) {
            guard let stereotype = try self.object(value) else { continue }
            for (key, item) in try entries(stereotype["XDBucketForOwnedAttributesstorage"]) {
                guard let key = try string(key) else {
                    throw .malformedModel("a setting of \(owner) has no name")
                }
                guard let property = try self.object(item) else { continue }
                settings[key] = property["_default"]
            }
        }
        return settings
    }

    private func flag(_ settings: LegacySettings, _ key: String, of owner: String) throws(LegacyModelError) -> Bool? {
        try flag(settings[key], key, of: owner)
    }

    private func flag(_ value: PropertyListValue?, _ key: String, of owner: String) throws(LegacyModelError) -> Bool? {
        guard let resolved = try resolve(value) else { return nil }
        guard let flag = resolved.boolValue else {
            throw .malformedModel("'\(owner)': setting \(key) is a \(resolved.kindName), expected a boolean")
        }
        return flag
    }

    private func integer(_ settings: LegacySettings, _ key: String, of owner: String) throws(LegacyModelError) -> Int? {
        guard let resolved = try resolve(settings[key]) else { return nil }
        guard let number = resolved.integerValue else {
            throw .malformedModel("'\(owner)': setting \(key) is a \(resolved.kindName), expected an integer")
        }
        return Int(clamping: number)
    }

    /// The string entries of a `userInfo` dictionary; other values are counted and dropped.
    private mutating func userInfo(_ value: PropertyListValue?) throws(LegacyModelError) -> UserInfo {
        var info = UserInfo()
        for (key, entry) in try entries(value) {
            guard let key = try string(key), let resolved = try resolve(entry) else { continue }
            switch resolved {
            case .string(let text): info[key] = text
            case .integer(let number): info[key] = String(number)
            case .bool(let flag): info[key] = flag ? "YES" : "NO"
            case .dictionary(let fields) where fields["NS.string"] != nil: info[key] = try string(entry)
            default: droppedUserInfoEntries += 1
            }
        }
        return info
    }

    /// The number of elements of an archived collection; 0 for `$null` or a non-collection placeholder.
    private mutating func collectionCount(_ value: PropertyListValue?) throws(LegacyModelError) -> Int {
        guard case .dictionary? = try resolve(value) else { return 0 }
        return try elements(value).count
    }

    private func requiredName(of object: ArchivedObject, kind: String) throws(LegacyModelError) -> String {
        guard let name = try string(object["_name"]), !name.isEmpty else {
            throw .malformedModel("an \(kind) (archive object \(object.reference)) has no name")
        }
        return name
    }

    private func nonEmpty(_ string: String?) -> String? {
        guard let string, !string.isEmpty else { return nil }
        return string
    }

    private mutating func warn(_ message: String) {
        diagnostics.append(ModelDiagnostic(.warning, "legacy Xcode 3 model: \(message)", at: location))
    }

    private mutating func error(_ message: String) {
        diagnostics.append(ModelDiagnostic(.error, message, at: location))
    }

    /// Byte order of the UTF-8 names, as Xcode sorts them and as version hashes sort properties.
    private static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        Array(lhs.utf8).lexicographicallyPrecedes(Array(rhs.utf8))
    }

    // MARK: Archive access, with its errors wrapped

    private func resolve(_ value: PropertyListValue?) throws(LegacyModelError) -> PropertyListValue? {
        do { return try archive.resolve(value) } catch { throw .archive(error) }
    }

    private func object(_ value: PropertyListValue?) throws(LegacyModelError) -> ArchivedObject? {
        do { return try archive.object(value) } catch { throw .archive(error) }
    }

    private func string(_ value: PropertyListValue?) throws(LegacyModelError) -> String? {
        do { return try archive.string(value) } catch { throw .archive(error) }
    }

    private mutating func elements(_ value: PropertyListValue?) throws(LegacyModelError) -> [PropertyListValue] {
        let elements: [PropertyListValue]
        do { elements = try archive.elements(value) } catch { throw .archive(error) }
        try spend(elements.count)
        return elements
    }

    private mutating func entries(
        _ value: PropertyListValue?
    ) throws(LegacyModelError) -> [(key: PropertyListValue, value: PropertyListValue)] {
        let entries: [(key: PropertyListValue, value: PropertyListValue)]
        do { entries = try archive.entries(value) } catch { throw .archive(error) }
        try spend(entries.count)
        return entries
    }

    private mutating func spend(_ visits: Int) throws(LegacyModelError) {
        budget -= visits
        if budget < 0 {
            throw .malformedModel(
                "the archive lists the same objects over and over (more than \(8 * archive.objects.count + 10_000) visits); Xcode does not write such files")
        }
    }
}
