import Foundation

/// Decodes the model a Core Data SQLite store keeps in `Z_MODELCACHE` (raw DEFLATE of a keyed archive of
/// `NSManagedObjectModel`, reference `z-modelcache.md`) into a ``ManagedObjectModel``.
///
/// The cache is the runtime model: every entity lists its inherited properties too, so the declared ones
/// are its own minus its parent's (§4.1); the implicit one-property fetch indexes some framework versions
/// add are dropped (§4.2). Minimums and maximums are read back from the validation predicates Core Data
/// archives for them. Not decoded: fetched properties and other validation predicates, none of which
/// changes the entity version hashes or the store layout.
/// References are followed one at a time with a visit budget, so a hostile archive cannot loop.
struct ModelCacheDecoder {
    /// The largest inflated archive accepted; the corpus's largest is about 60 KB.
    static let maximumInflatedSize = 32 << 20

    private let archive: KeyedArchive
    private var budget: Int

    /// Decodes a `Z_CONTENT` blob.
    static func decode(_ blob: [UInt8]) throws(ModelCacheError) -> ManagedObjectModel {
        let plistBytes: [UInt8]
        if blob.starts(with: Array("bplist00".utf8)) {
            plistBytes = blob
        } else {
            do {
                plistBytes = try RawDeflate.inflate(blob, limit: maximumInflatedSize)
            } catch {
                switch error {
                case .damaged(let reason): throw .notCompressed(reason)
                case .tooLarge(let limit): throw .tooLarge(limit: limit)
                }
            }
        }
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(try BinaryPropertyListReader.parse(plistBytes))
        } catch let error as KeyedArchiveError {
            throw .notAModelArchive("\(error)")
        } catch {
            throw .notAModelArchive("\(error)")
        }
        var decoder = ModelCacheDecoder(archive: archive, budget: 8 * archive.objects.count + 10_000)
        let model = try decoder.decodeModel()
        // Models built in code may say `maxCount = .max`, which Core Data archives (and hashes) as -1: kept
        // as is for the hashes, validated as "no limit".
        var checked = model
        for (index, entity) in checked.entities.enumerated() {
            for (position, relationship) in entity.relationships.enumerated() where (relationship.maxCount ?? 0) < 0 {
                checked.entities[index].relationships[position].maxCount = nil
            }
        }
        let problems = ModelValidator().problems(in: checked).filter { $0.severity == .error }
        if !problems.isEmpty { throw .invalidModel(problems.map(\.message)) }
        return model
    }

    private init(archive: KeyedArchive, budget: Int) {
        self.archive = archive
        self.budget = budget
    }

    // MARK: Model

    private mutating func decodeModel() throws(ModelCacheError) -> ManagedObjectModel {
        guard let root = try object(archive.top["root"]) else { throw .notAModelArchive("the archive has no root object") }
        guard root.className == "NSManagedObjectModel" else {
            throw .notAModelArchive("the root object is a \(root.className), not an NSManagedObjectModel")
        }
        var entities: [EntityDescription] = []
        var archived: [(name: String, object: ArchivedObject)] = []
        for value in try entityReferences(root["NSEntities"]) {
            guard let entity = try object(value) else { continue }
            guard entity.className == "NSEntityDescription" else {
                throw .notAModelArchive("the model's entities hold a \(entity.className)")
            }
            archived.append((try requiredString(entity["NSEntityName"], "an entity's name"), entity))
        }
        for (name, entity) in archived { entities.append(try decodeEntity(entity, name: name)) }
        entities.sort { Self.precedes($0.name, $1.name) }
        var model = ManagedObjectModel(entities: entities)
        let identifiers = try elements(root["NSVersionIdentifiers"]).map { (value) throws(ModelCacheError) in try string(value) }
        // An empty identifier (Core Data's `{""}`) is the model's "none".
        if let identifier = identifiers.compactMap({ $0 }).filter({ !$0.isEmpty }).sorted().first {
            model.versionIdentifier = identifier
        }
        for (key, value) in try entries(root["NSConfigurations"]) {
            guard let name = try string(key) else { continue }
            var members: [String] = []
            for member in try elements(value) {
                if let entity = try object(member), let memberName = try string(entity["NSEntityName"]) {
                    members.append(memberName)
                }
            }
            model.configurations.append(ModelConfiguration(name: name, memberEntityNames: members.sorted()))
        }
        model.configurations.sort { $0.name < $1.name }
        return model
    }

    /// The entity references of `NSEntities`: Core Data's `NSKnownKeysDictionary1` (values in `values`),
    /// or a plain archived dictionary.
    private mutating func entityReferences(_ value: PropertyListValue?) throws(ModelCacheError) -> [PropertyListValue] {
        guard let dictionary = try object(value) else { throw .notAModelArchive("the model has no entities") }
        if dictionary["values"] != nil { return try elements(dictionary["values"]) }
        return try entries(value).map(\.value)
    }

    // MARK: Entities

    private mutating func decodeEntity(_ object: ArchivedObject, name: String) throws(ModelCacheError) -> EntityDescription {
        var entity = EntityDescription(name: name, representedClassName: try string(object["NSClassNameForEntity"]))
        entity.isAbstract = flag(object["NSIsAbstract"])
        var inherited: Set<String> = []
        if let parent = try self.object(object["NSSuperentity"]) {
            entity.parentEntityName = try requiredString(parent["NSEntityName"], "the parent of entity '\(name)'")
            for (key, _) in try entries(parent["NSProperties"]) {
                if let key = try string(key) { inherited.insert(key) }
            }
        }
        entity.versionHashModifier = nonEmpty(try string(object["NSVersionHashModifier"]))
        entity.renamingIdentifier = renaming(try string(object["NSRenamingIdentifier"]), name: name)
        entity.userInfo = try userInfo(object["NSUserInfo"])
        for (key, value) in try entries(object["NSProperties"]) {
            guard let key = try string(key), !inherited.contains(key), let property = try self.object(value) else { continue }
            switch property.className {
            case "NSAttributeDescription", "NSDerivedAttributeDescription":
                entity.attributes.append(try decodeAttribute(property, name: key, of: name))
            case "NSRelationshipDescription":
                entity.relationships.append(try decodeRelationship(property, name: key, of: name))
            default:
                continue  // fetched properties and unknown kinds: not stored, not hashed
            }
        }
        entity.attributes.sort { Self.precedes($0.name, $1.name) }
        entity.relationships.sort { Self.precedes($0.name, $1.name) }
        for tuple in try elements(object["NSUniqueTuples"]) {
            var properties: [String] = []
            for element in try elements(tuple) {
                properties.append(try requiredString(element, "a uniqueness constraint of entity '\(name)'"))
            }
            entity.uniquenessConstraints.append(UniquenessConstraint(properties: properties))
        }
        for value in try elements(object["NSFetchIndexDescriptions"]) {
            guard let index = try self.object(value) else { continue }
            let indexName = try requiredString(index["NSIndexName"], "a fetch index of entity '\(name)'")
            var elements: [FetchIndex.Element] = []
            for item in try self.elements(index["NSIndexElements"]) {
                guard let element = try self.object(item) else { continue }
                let property = try requiredString(element["NSPropertyName"], "an element of fetch index '\(indexName)'")
                let kind: FetchIndex.Element.Kind = integer(element["NSFetchIndexElementType"]) == 1 ? .rTree : .binary
                let ascending = element["NSAscending"].flatMap(\.boolValue) ?? true
                elements.append(FetchIndex.Element(property: property, kind: kind, isAscending: ascending))
            }
            // The implicit index Core Data adds for a property indexed on its own (§4.2).
            if elements.count == 1, elements[0].property == indexName { continue }
            entity.fetchIndexes.append(FetchIndex(name: indexName, elements: elements))
        }
        // Legacy compound indexes; from framework 977 on they only mirror the fetch indexes (§3.2).
        if object["NSFetchIndexDescriptions"] == nil {
            for value in try elements(object["NSCompoundIndexes"]) {
                var elements: [FetchIndex.Element] = []
                for property in try self.elements(value) {
                    elements.append(FetchIndex.Element(property: try requiredString(property, "a compound index of entity '\(name)'")))
                }
                entity.compoundIndexes.append(FetchIndex(name: "", elements: elements))
            }
        }
        return entity
    }

    // MARK: Properties

    private mutating func decodeAttribute(
        _ object: ArchivedObject, name: String, of entity: String
    ) throws(ModelCacheError) -> AttributeDescription {
        let code = integer(object["NSAttributeType"]) ?? 0
        guard let type = AttributeType(code: code) else {
            throw .invalidModel(["attribute '\(entity).\(name)' has unknown attribute type code \(code)"])
        }
        var attribute = AttributeDescription(name: name, type: type)
        attribute.isOptional = flag(object["NSIsOptional"])
        attribute.isTransient = flag(object["NSIsTransient"])
        attribute.isIndexed = flag(object["NSIsIndexed"])
        attribute.isIndexedBySpotlight = flag(object["NSIndexedBySpotlight"])
        attribute.isDerived = object.className == "NSDerivedAttributeDescription"
        if attribute.isDerived { attribute.derivationExpression = try expressionText(object["NSDerivationExpression"]) }
        attribute.valueTransformerName = nonEmpty(try string(object["NSValueTransformerName"]))
        attribute.preservesValueInHistoryOnDeletion = (integer(object["NSFlagsKey"]) ?? 0) & 0x10 != 0
        attribute.versionHashModifier = nonEmpty(try string(object["NSVersionHashModifier"]))
        attribute.renamingIdentifier = renaming(try string(object["NSRenamingIdentifier"]), name: name)
        attribute.userInfo = try userInfo(object["NSUserInfo"])
        try setDefault(of: &attribute, from: object["NSDefaultValue"])
        try setBounds(of: &attribute, from: object["NSValidationPredicates"])
        return attribute
    }

    /// The typed `NSDefaultValue`, written back as the model file's `defaultValueString`.
    private func setDefault(of attribute: inout AttributeDescription, from value: PropertyListValue?) throws(ModelCacheError) {
        guard let resolved = try resolve(value) else { return }
        switch resolved {
        case .integer(let number):
            attribute.defaultValueString = attribute.type == .boolean ? (number == 0 ? "NO" : "YES") : String(number)
        case .bool(let flag):
            attribute.defaultValueString = flag ? "YES" : "NO"
        case .real(let number):
            attribute.defaultValueString = String(number)
        case .string(let text):
            attribute.defaultValueString = text
        case .dictionary:
            guard let object = try object(value) else { return }
            if object.className == "NSDate", case .real(let seconds)? = try resolve(object["NS.time"]) {
                attribute.defaultDateTimeInterval = seconds
            } else if object.className == "NSDate", case .integer(let seconds)? = try resolve(object["NS.time"]) {
                attribute.defaultDateTimeInterval = Double(seconds)
            } else if object.className == "NSUUID", case .data(let bytes)? = try resolve(object["NS.uuidbytes"]), bytes.count == 16 {
                let uuid = UUID(
                    uuid: (
                        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                        bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                    ))
                attribute.defaultValueString = uuid.uuidString
            } else if object.className == "NSURL", try resolve(object["NS.base"]) == nil, let text = try string(object["NS.relative"]) {
                attribute.defaultValueString = text
            } else if let text = try? string(value) {
                attribute.defaultValueString = text
            }
        default:
            return  // archived app objects (Transformable defaults) are not kept
        }
    }

    /// The model file's minimum and maximum, from the validation predicates Core Data archives for them:
    /// `SELF >= min` / `SELF <= max` for numbers and dates, `length >= min` / `length <= max` for strings.
    /// Other validation predicates (code-built ones) are not kept.
    private mutating func setBounds(of attribute: inout AttributeDescription, from value: PropertyListValue?) throws(ModelCacheError) {
        for item in try elements(value) {
            guard let predicate = try object(item), predicate.className == "NSComparisonPredicate",
                let comparator = try object(predicate["NSPredicateOperator"]), comparator.className == "NSComparisonPredicateOperator",
                (integer(comparator["NSModifier"]) ?? 0) == 0, let left = try object(predicate["NSLeftExpression"]),
                let right = try object(predicate["NSRightExpression"]), right.className == "NSConstantValueExpression"
            else { continue }
            let isMinimum: Bool
            switch integer(comparator["NSOperatorType"]) {
            case 3: isMinimum = true
            case 1: isMinimum = false
            default: continue
            }
            let constant = try resolve(right["NSConstantValue"])
            switch attribute.type {
            case .integer16, .integer32, .integer64, .decimal, .double, .float:
                guard left.className == "NSSelfExpression" else { continue }
                let text: String
                switch constant {
                case .integer(let number)?: text = String(number)
                case .real(let number)?: text = String(number)
                default: continue
                }
                if isMinimum { attribute.minValueString = text } else { attribute.maxValueString = text }
            case .string:
                guard left.className == "NSKeyPathExpression", try expressionText(predicate["NSLeftExpression"]) == "length",
                    case .integer(let length)? = constant
                else { continue }
                if isMinimum { attribute.minValueString = String(length) } else { attribute.maxValueString = String(length) }
            case .date:
                guard left.className == "NSSelfExpression", let date = try object(right["NSConstantValue"]), date.className == "NSDate",
                    case .real(let seconds)? = try resolve(date["NS.time"])
                else { continue }
                if isMinimum { attribute.minDateTimeInterval = seconds } else { attribute.maxDateTimeInterval = seconds }
            default:
                continue
            }
        }
    }

    private mutating func decodeRelationship(
        _ object: ArchivedObject, name: String, of entity: String
    ) throws(ModelCacheError) -> RelationshipDescription {
        var destination = try string(object["_NSDestinationEntityName"])
        if destination == nil, let target = try self.object(object["NSDestinationEntity"]) {
            destination = try string(target["NSEntityName"])
        }
        guard let destination, !destination.isEmpty else {
            throw .invalidModel(["relationship '\(entity).\(name)' has no destination entity"])
        }
        var inverseName = try string(object["_NSInverseRelationshipName"])
        if inverseName == nil, let inverse = try self.object(object["NSInverseRelationship"]) {
            inverseName = try string(inverse["NSPropertyName"])
        }
        let maximum = integer(object["NSMaxCount"]) ?? 0
        let minimum = integer(object["NSMinCount"]) ?? 0
        let isToMany = maximum != 1
        var relationship = RelationshipDescription(
            name: name, destinationEntityName: destination, inverseName: nonEmpty(inverseName),
            inverseEntityName: nonEmpty(inverseName) == nil ? nil : destination, isToMany: isToMany)
        relationship.minCount = minimum == 0 ? nil : minimum
        relationship.maxCount = isToMany ? (maximum == 0 ? nil : maximum) : 1
        relationship.isOrdered = flag(object["NSIsOrdered"])
        switch integer(object["NSDeleteRule"]) ?? 1 {
        case 0: relationship.deleteRule = .noAction
        case 2: relationship.deleteRule = .cascade
        case 3: relationship.deleteRule = .deny
        default: relationship.deleteRule = .nullify
        }
        relationship.isOptional = flag(object["NSIsOptional"])
        relationship.isTransient = flag(object["NSIsTransient"])
        relationship.isIndexedBySpotlight = flag(object["NSIndexedBySpotlight"])
        relationship.versionHashModifier = nonEmpty(try string(object["NSVersionHashModifier"]))
        relationship.renamingIdentifier = renaming(try string(object["NSRenamingIdentifier"]), name: name)
        relationship.userInfo = try userInfo(object["NSUserInfo"])
        return relationship
    }

    /// A derivation expression in the model file's spelling: a key path (`author.name`), or an aggregate
    /// of one (`pages.@count`, archived as the function `count:`); `nil` for anything else.
    private mutating func expressionText(_ value: PropertyListValue?) throws(ModelCacheError) -> String? {
        guard let expression = try object(value) else { return nil }
        switch expression.className {
        case "NSKeyPathExpression":
            let arguments = try elements(expression["NSArguments"])
            guard arguments.count == 1, let specifier = try object(arguments[0]) else { return nil }
            return try string(specifier["NSKeyPath"])
        case "NSKeyPathSpecifierExpression":
            return try string(expression["NSKeyPath"])
        case "NSFunctionExpression":
            let aggregates = ["count:": "@count", "sum:": "@sum", "max:": "@max", "min:": "@min", "average:": "@avg"]
            guard let selector = try string(expression["NSSelectorName"]) else { return nil }
            let arguments = try elements(expression["NSArguments"])
            if let aggregate = aggregates[selector] {
                guard arguments.count == 1, let path = try expressionText(arguments[0]) else { return nil }
                return "\(path).\(aggregate)"
            }
            // Another function of key paths, in the model file's spelling: `canonical:(name)`, `now()`.
            var texts: [String] = []
            for argument in arguments {
                guard let text = try expressionText(argument) else { return nil }
                texts.append(text)
            }
            return "\(selector)(\(texts.joined(separator: ", ")))"
        default:
            return nil
        }
    }

    // MARK: Values

    /// The cache stores the name as the renaming identifier when none was set; the model keeps `nil` then.
    private func renaming(_ identifier: String?, name: String) -> String? {
        guard let identifier, !identifier.isEmpty, identifier != name else { return nil }
        return identifier
    }

    private func flag(_ value: PropertyListValue?) -> Bool {
        value?.boolValue ?? false
    }

    private func integer(_ value: PropertyListValue?) -> Int? {
        value?.integerValue.map { Int(clamping: $0) }
    }

    private mutating func userInfo(_ value: PropertyListValue?) throws(ModelCacheError) -> UserInfo {
        var info = UserInfo()
        for (key, entry) in try entries(value) {
            guard let key = try string(key), let resolved = try resolve(entry) else { continue }
            switch resolved {
            case .string: info[key] = try string(entry)
            case .integer(let number): info[key] = String(number)
            case .bool(let flag): info[key] = flag ? "YES" : "NO"
            case .dictionary(let fields) where fields["NS.string"] != nil: info[key] = try string(entry)
            default: continue
            }
        }
        return info
    }

    private func nonEmpty(_ string: String?) -> String? {
        guard let string, !string.isEmpty else { return nil }
        return string
    }

    private static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        Array(lhs.utf8).lexicographicallyPrecedes(Array(rhs.utf8))
    }

    // MARK: Archive access, with its errors wrapped

    private func requiredString(_ value: PropertyListValue?, _ what: String) throws(ModelCacheError) -> String {
        guard let text = try string(value), !text.isEmpty else { throw .notAModelArchive("\(what) is missing") }
        return text
    }

    private func resolve(_ value: PropertyListValue?) throws(ModelCacheError) -> PropertyListValue? {
        do { return try archive.resolve(value) } catch { throw .notAModelArchive("\(error)") }
    }

    private func object(_ value: PropertyListValue?) throws(ModelCacheError) -> ArchivedObject? {
        do { return try archive.object(value) } catch { throw .notAModelArchive("\(error)") }
    }

    private func string(_ value: PropertyListValue?) throws(ModelCacheError) -> String? {
        do { return try archive.string(value) } catch { throw .notAModelArchive("\(error)") }
    }

    private mutating func elements(_ value: PropertyListValue?) throws(ModelCacheError) -> [PropertyListValue] {
        let elements: [PropertyListValue]
        do { elements = try archive.elements(value) } catch { throw .notAModelArchive("\(error)") }
        try spend(elements.count)
        return elements
    }

    private mutating func entries(
        _ value: PropertyListValue?
    ) throws(ModelCacheError) -> [(key: PropertyListValue, value: PropertyListValue)] {
        let entries: [(key: PropertyListValue, value: PropertyListValue)]
        do { entries = try archive.entries(value) } catch { throw .notAModelArchive("\(error)") }
        try spend(entries.count)
        return entries
    }

    private mutating func spend(_ visits: Int) throws(ModelCacheError) {
        budget -= visits
        if budget < 0 { throw .notAModelArchive("the archive lists the same objects over and over") }
    }
}

extension ManagedObjectModel {
    /// Decodes the model a Core Data SQLite store keeps in `Z_MODELCACHE.Z_CONTENT` (raw DEFLATE of a keyed
    /// archive of `NSManagedObjectModel`).
    ///
    /// The result has the entities, attributes, relationships, uniqueness constraints, fetch indexes,
    /// version identifier and configurations of the archived model, so its entity version hashes equal
    /// the store's, with minimums and maximums and derivation expressions (key paths and functions of
    /// them). Fetched properties and other validation predicates are not decoded.
    /// - Throws: ``ModelCacheError`` naming the problem.
    public init(modelCache blob: [UInt8]) throws(ModelCacheError) {
        self = try ModelCacheDecoder.decode(blob)
    }
}
