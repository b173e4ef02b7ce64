import Foundation

/// Encodes a ``ManagedObjectModel`` as the `Z_MODELCACHE.Z_CONTENT` blob Apple's Core Data keeps in its
/// SQLite stores (reference `z-modelcache.md`): a keyed archive of `NSManagedObjectModel` in a binary
/// property list, compressed as raw DEFLATE with Apple's Compression-library "zlib" settings. The inverse
/// of ``ModelCacheDecoder``.
///
/// The archive has the classes and keys the corpus archives show (§2, §3): the model's entities in an
/// `NSKnownKeysDictionary1` sorted by name; each entity with its class name, parent and direct
/// sub-entities, its renaming identifier and version hash modifier, its user info, its uniqueness
/// constraints and fetch indexes (on the declaring entity only), and every property, inherited ones
/// included as the entity's own copies (§4.1); attributes with their type code, value class, typed
/// default, transformer, flags; relationships with destination and inverse (references and the name
/// fallbacks), minimum and maximum counts, delete rule and ordering. Flag words (`_P`, `NSFlagsKey`)
/// follow §3.8.
///
/// Minimums and maximums are archived as Core Data's validation predicates (numbers, dates, string
/// lengths). Not archived: fetched properties and fetch request templates (their predicates would have to
/// be archived as object graphs), regular expressions and Binary lengths (no corpus archive shows them),
/// derivation expressions other than key paths and functions of them, fetch index elements that are
/// expressions. None of them changes an entity version hash or the store layout. A model with Composite
/// attributes is refused (``ModelCacheEncodingError/unsupported(_:)``): no corpus archive shows their form.
struct ModelCacheEncoder {
    private var archive = KeyedArchiveEncoder()
    private let model: ManagedObjectModel
    /// The entities in archive order (by name, as Core Data sorts `NSEntities`).
    private let entities: [EntityDescription]
    private var entityReferences: [String: PropertyListValue] = [:]
    /// Each entity's own copy of each of its properties (inherited ones included), by entity and name.
    private var propertyReferences: [String: [String: PropertyListValue]] = [:]
    private var root = KeyedArchiveEncoder.null

    /// The `Z_CONTENT` blob of `model`.
    static func encode(_ model: ManagedObjectModel) throws(ModelCacheEncodingError) -> [UInt8] {
        let plist = try propertyList(model)
        do {
            return try RawDeflate.deflate(plist)
        } catch {
            throw .compressionFailed(error.reason)
        }
    }

    /// The uncompressed archive: a binary property list.
    static func propertyList(_ model: ManagedObjectModel) throws(ModelCacheEncodingError) -> [UInt8] {
        var encoder = try ModelCacheEncoder(model: model)
        do {
            try encoder.encodeModel()
            return BinaryPropertyListWriter.write(try encoder.archive.archive(root: encoder.root))
        } catch {
            throw .archiveIncomplete("\(error)")
        }
    }

    private init(model: ManagedObjectModel) throws(ModelCacheEncodingError) {
        self.model = model
        entities = model.entities.sorted { Self.precedes($0.name, $1.name) }
        let problems = Self.problems(in: model)
        guard problems.isEmpty else { throw .invalidModel(problems) }
        let composites = model.entities.flatMap { entity in
            entity.attributes.filter { $0.type == .composite }.map { "the Composite attribute '\(entity.name).\($0.name)'" }
        }
        guard composites.isEmpty else { throw .unsupported(composites) }
    }

    /// What keeps the model from being archived as Core Data holds it: repeated entity names, parents
    /// missing or looping, an entity's properties (inherited ones included) sharing a name.
    private static func problems(in model: ManagedObjectModel) -> [String] {
        var problems: [String] = []
        var names: Set<String> = []
        for entity in model.entities where !names.insert(entity.name).inserted {
            problems.append("two entities are named '\(entity.name)'")
        }
        for entity in model.entities {
            var seen: Set<String> = [entity.name]
            var next = entity.parentEntityName
            while let parentName = next {
                guard let parent = model.entity(named: parentName) else {
                    problems.append("the parent '\(parentName)' of entity '\(entity.name)' is not in the model")
                    break
                }
                guard seen.insert(parentName).inserted else {
                    problems.append("the parents of entity '\(entity.name)' loop back to '\(parentName)'")
                    break
                }
                next = parent.parentEntityName
            }
            var properties: Set<String> = []
            let all = model.allAttributes(of: entity).map(\.name) + model.allRelationships(of: entity).map(\.name)
            for name in all where !properties.insert(name).inserted {
                problems.append("entity '\(entity.name)' has two properties named '\(name)' (its own and inherited ones)")
            }
        }
        return problems
    }

    // MARK: Model

    private mutating func encodeModel() throws(KeyedArchiveEncoder.Failure) {
        root = archive.reserve()
        for entity in entities { entityReferences[entity.name] = archive.reserve() }
        for entity in entities {
            var references: [String: PropertyListValue] = [:]
            for attribute in model.allAttributes(of: entity) { references[attribute.name] = archive.reserve() }
            for relationship in model.allRelationships(of: entity) { references[relationship.name] = archive.reserve() }
            propertyReferences[entity.name] = references
        }

        let names = entities.map { archive.string($0.name) }
        let keys = archive.array(names)
        let mapping = archive.encode(
            classes: ["NSKnownKeysMappingStrategy1", "NSKnownKeysMappingStrategy", "NSObject"],
            fields: ["keys": keys, "length": .integer(Int64(names.count)), "version": .integer(1)])
        let emptyToken = archive.string("__empty_slot_token_4c24_98dc_ac1e_b773__")
        let values = archive.array(entities.map { entityReferences[$0.name] ?? KeyedArchiveEncoder.null })
        let entityDictionary = archive.encode(
            classes: ["NSKnownKeysDictionary1", "NSKnownKeysDictionary", "NSMutableDictionary", "NSDictionary", "NSObject"],
            fields: ["searchMapping": mapping, "emptyToken": emptyToken, "values": values, "version": .integer(1)])
        // Core Data's store metadata writes [""] for a model with no identifier; the cache matches it.
        let identifiers = archive.set([archive.string(model.versionIdentifier ?? "")])
        var fields: [String: PropertyListValue] = [
            "NSEntities": entityDictionary, "NSVersionIdentifiers": identifiers, "NSFetchRequestTemplates": KeyedArchiveEncoder.null,
        ]
        if !model.configurations.isEmpty {
            var configurationNames: [PropertyListValue] = []
            var members: [PropertyListValue] = []
            for configuration in model.configurations {
                configurationNames.append(archive.string(configuration.name))
                members.append(archive.array(configuration.memberEntityNames.compactMap { entityReferences[$0] }))
            }
            fields["NSConfigurations"] = archive.dictionary(keys: configurationNames, values: members, mutable: true)
        }
        try archive.fill(root, classes: ["NSManagedObjectModel", "NSObject"], fields: fields)
        for entity in entities { try encodeEntity(entity) }
    }

    // MARK: Entities

    private mutating func encodeEntity(_ entity: EntityDescription) throws(KeyedArchiveEncoder.Failure) {
        let reference = entityReferences[entity.name] ?? KeyedArchiveEncoder.null
        let own = propertyReferences[entity.name] ?? [:]
        var fields: [String: PropertyListValue] = [
            "NSEntityName": archive.string(entity.name),
            "NSClassNameForEntity": archive.string(Self.archivedClassName(entity.representedClassName)),
            "NSManagedObjectModel": root,
            "NSUserInfo": userInfo(entity.userInfo),
            "NSVersionHashModifier": archive.string(entity.versionHashModifier),
            "NSRenamingIdentifier": archive.string(entity.renamingIdentifier ?? entity.name),
            "NSSuperentity": entity.parentEntityName.flatMap { entityReferences[$0] } ?? KeyedArchiveEncoder.null,
        ]
        if entity.isAbstract { fields["NSIsAbstract"] = .bool(true) }
        let children = entities.filter { $0.parentEntityName == entity.name }
        fields["NSSubentities"] =
            children.isEmpty
            ? KeyedArchiveEncoder.null
            : archive.dictionary(
                keys: children.map { archive.string($0.name) },
                values: children.map { entityReferences[$0.name] ?? KeyedArchiveEncoder.null }, mutable: true)

        let attributes = model.allAttributes(of: entity)
        let relationships = model.allRelationships(of: entity)
        let propertyNames = attributes.map(\.name) + relationships.map(\.name)
        fields["NSProperties"] = archive.dictionary(
            keys: propertyNames.map { archive.string($0) },
            values: propertyNames.map { own[$0] ?? KeyedArchiveEncoder.null }, mutable: true)

        if !entity.uniquenessConstraints.isEmpty {
            let tuples = entity.uniquenessConstraints.map { constraint in
                archive.array(constraint.properties.map { archive.string($0) }, mutable: true)
            }
            fields["NSUniqueTuples"] = archive.array(tuples, mutable: true)
        }
        let indexes = entity.fetchIndexes.filter { index in index.elements.allSatisfy { $0.property != nil } }
        if !indexes.isEmpty {
            var encoded: [PropertyListValue] = []
            for index in indexes { encoded.append(try fetchIndex(index, entity: reference)) }
            fields["NSFetchIndexDescriptions"] = archive.array(encoded, mutable: true)
        }
        if !entity.compoundIndexes.isEmpty {
            let compound = entity.compoundIndexes.map { index in
                archive.array(index.elements.compactMap(\.property).map { archive.string($0) }, mutable: true)
            }
            fields["NSCompoundIndexes"] = archive.array(compound, mutable: true)
        }
        try archive.fill(reference, classes: ["NSEntityDescription", "NSObject"], fields: fields)

        for attribute in attributes {
            try encodeAttribute(attribute, into: own[attribute.name] ?? KeyedArchiveEncoder.null, entity: reference)
        }
        for relationship in relationships {
            try encodeRelationship(relationship, into: own[relationship.name] ?? KeyedArchiveEncoder.null, entity: reference)
        }
    }

    private mutating func fetchIndex(_ index: FetchIndex, entity: PropertyListValue) throws(KeyedArchiveEncoder.Failure) -> PropertyListValue {
        let reference = archive.reserve()
        var elements: [PropertyListValue] = []
        for element in index.elements {
            elements.append(
                archive.encode(
                    classes: ["NSFetchIndexElementDescription", "NSObject"],
                    fields: [
                        "NSPropertyName": archive.string(element.property),
                        "NSFetchIndexElementType": .integer(element.kind == .rTree ? 1 : 0),
                        "NSAscending": .bool(element.isAscending),
                        "NSFetchIndexDescription": reference,
                    ]))
        }
        try archive.fill(
            reference, classes: ["NSFetchIndexDescription", "NSObject"],
            fields: [
                "NSIndexName": archive.string(index.name), "NSIndexElements": archive.array(elements), "NSEntity": entity,
                "NSPartialIndexPredicate": KeyedArchiveEncoder.null,
            ])
        return reference
    }

    // MARK: Properties

    private mutating func encodeAttribute(
        _ attribute: AttributeDescription, into reference: PropertyListValue, entity: PropertyListValue
    ) throws(KeyedArchiveEncoder.Failure) {
        var fields = propertyFields(
            name: attribute.name, entity: entity, isOptional: attribute.isOptional, isTransient: attribute.isTransient,
            isReadOnly: attribute.isDerived, isIndexedBySpotlight: attribute.isIndexedBySpotlight, isOrdered: false,
            renamingIdentifier: attribute.renamingIdentifier, versionHashModifier: attribute.versionHashModifier,
            userInfo: attribute.userInfo)
        if attribute.isIndexed { fields["NSIsIndexed"] = .bool(true) }
        fields["NSAttributeType"] = .integer(Int64(attribute.type.code))
        fields["NSAttributeValueClassName"] = archive.string(Self.valueClassName(of: attribute.type))
        fields["NSValueTransformerName"] = archive.string(attribute.valueTransformerName)
        fields["NSDefaultValue"] = defaultValue(of: attribute)
        fields["NSFlagsKey"] = .integer(attribute.preservesValueInHistoryOnDeletion ? 0x10 : 0)
        let rules = validationRules(of: attribute)
        if !rules.isEmpty {
            fields["NSValidationPredicates"] = archive.array(rules.map(\.predicate))
            fields["NSValidationWarnings"] = archive.array(rules.map { archive.value(.integer($0.warning)) })
            // Bits 4 and 5 of the flag word say "no validation predicates, no warnings" (§3.8).
            if case .integer(let flags)? = fields["_P"] { fields["_P"] = .integer(flags & ~0x30) }
        }
        var classes = ["NSAttributeDescription", "NSPropertyDescription", "NSObject"]
        if attribute.isDerived {
            classes.insert("NSDerivedAttributeDescription", at: 0)
            fields["NSDerivationExpression"] = attribute.derivationExpression.map { derivation($0) } ?? KeyedArchiveEncoder.null
            fields["NSFilteringPredicate"] = KeyedArchiveEncoder.null
        }
        try archive.fill(reference, classes: classes, fields: fields)
    }

    private mutating func encodeRelationship(
        _ relationship: RelationshipDescription, into reference: PropertyListValue, entity: PropertyListValue
    ) throws(KeyedArchiveEncoder.Failure) {
        var fields = propertyFields(
            name: relationship.name, entity: entity, isOptional: relationship.isOptional, isTransient: relationship.isTransient,
            isReadOnly: false, isIndexedBySpotlight: relationship.isIndexedBySpotlight, isOrdered: relationship.isOrdered,
            renamingIdentifier: relationship.renamingIdentifier, versionHashModifier: relationship.versionHashModifier,
            userInfo: relationship.userInfo)
        let destination = relationship.destinationEntityName
        fields["NSDestinationEntity"] = entityReferences[destination] ?? KeyedArchiveEncoder.null
        fields["_NSDestinationEntityName"] = archive.string(destination)
        if let inverse = relationship.inverseName, !inverse.isEmpty {
            fields["NSInverseRelationship"] = propertyReferences[destination]?[inverse] ?? KeyedArchiveEncoder.null
            fields["_NSInverseRelationshipName"] = archive.string(inverse)
        } else {
            fields["NSInverseRelationship"] = KeyedArchiveEncoder.null
        }
        // Xcode's to-one is 1 and its unlimited to-many 0, as the version hash counts them.
        let maximum = relationship.maxCount ?? (relationship.isToMany ? 0 : 1)
        fields["NSMaxCount"] = .integer(Int64(maximum))
        fields["NSMinCount"] = .integer(Int64(relationship.minCount ?? 0))
        let deleteRule: Int64 =
            switch relationship.deleteRule {
            case .noAction: 0
            case .nullify: 1
            case .cascade: 2
            case .deny: 3
            }
        fields["NSDeleteRule"] = .integer(deleteRule)
        try archive.fill(reference, classes: ["NSRelationshipDescription", "NSPropertyDescription", "NSObject"], fields: fields)
    }

    /// The keys every property has (§3.3), with the `_P` flag word of §3.8.
    private mutating func propertyFields(
        name: String, entity: PropertyListValue, isOptional: Bool, isTransient: Bool, isReadOnly: Bool,
        isIndexedBySpotlight: Bool, isOrdered: Bool, renamingIdentifier: String?, versionHashModifier: String?,
        userInfo info: UserInfo
    ) -> [String: PropertyListValue] {
        var fields: [String: PropertyListValue] = [
            "NSPropertyName": archive.string(name),
            "NSEntity": entity,
            "NSRenamingIdentifier": archive.string(renamingIdentifier ?? name),
        ]
        // Always set: bit 0, and bits 4 and 5 (no validation predicates, no validation warnings).
        var flags: Int64 = 0x01 | 0x10 | 0x20
        if isOptional {
            fields["NSIsOptional"] = .bool(true)
            flags |= 0x02
        }
        if isReadOnly {
            fields["NSIsReadOnly"] = .bool(true)
            flags |= 0x04
        }
        if isTransient {
            fields["NSIsTransient"] = .bool(true)
            flags |= 0x08
        }
        if info.isEmpty { flags |= 0x40 } else { fields["NSUserInfo"] = userInfo(info) }
        if let versionHashModifier {
            fields["NSVersionHashModifier"] = archive.string(versionHashModifier)
        } else {
            flags |= 0x80
        }
        if isIndexedBySpotlight {
            fields["NSIndexedBySpotlight"] = .bool(true)
            flags |= 0x100
        }
        if isOrdered {
            fields["NSIsOrdered"] = .bool(true)
            flags |= 0x400
        }
        fields["_P"] = .integer(flags)
        return fields
    }

    // MARK: Validation

    /// The model file's minimum and maximum as Core Data archives them (§3.3, NoteStore's
    /// `SELF >= 0`): a number's or a date's as `SELF >= min` and `SELF <= max`, a string's length as
    /// `length >= min` and `length <= max`, each with the public validation error code Core Data reports
    /// (`NSValidationNumberTooSmallError` 1620 and so on). Values that do not read as the type are left out.
    private mutating func validationRules(of attribute: AttributeDescription) -> [(predicate: PropertyListValue, warning: Int64)] {
        var rules: [(predicate: PropertyListValue, warning: Int64)] = []
        switch attribute.type {
        case .integer16, .integer32, .integer64, .decimal, .double, .float:
            for (text, isMinimum) in [(attribute.minValueString, true), (attribute.maxValueString, false)] {
                guard let text, let constant = Int64(text).map(PropertyListValue.integer) ?? Double(text).map(PropertyListValue.real) else {
                    continue
                }
                rules.append((comparison(selfExpression(), isMinimum: isMinimum, constant), isMinimum ? 1620 : 1610))
            }
        case .string:
            for (text, isMinimum) in [(attribute.minValueString, true), (attribute.maxValueString, false)] {
                guard let text, let length = Int64(text), length >= 0 else { continue }
                rules.append((comparison(keyPath("length"), isMinimum: isMinimum, .integer(length)), isMinimum ? 1670 : 1660))
            }
        case .date:
            let bounds = [
                (attribute.minDateTimeInterval ?? attribute.minValueString.flatMap(Double.init), true),
                (attribute.maxDateTimeInterval ?? attribute.maxValueString.flatMap(Double.init), false),
            ]
            for (seconds, isMinimum) in bounds {
                guard let seconds else { continue }
                let date = archive.encode(classes: ["NSDate", "NSObject"], fields: ["NS.time": .real(seconds)])
                rules.append((comparison(selfExpression(), isMinimum: isMinimum, date), isMinimum ? 1640 : 1630))
            }
        default:
            break
        }
        return rules
    }

    /// `left >= constant` (a minimum) or `left <= constant` (a maximum).
    private mutating func comparison(_ left: PropertyListValue, isMinimum: Bool, _ constant: PropertyListValue) -> PropertyListValue {
        let type: Int64 = isMinimum ? 3 : 1
        let right = archive.encode(
            classes: ["NSConstantValueExpression", "NSExpression", "NSObject"],
            fields: ["NSConstantValue": constant, "NSExpressionType": .integer(0)])
        let comparator = archive.encode(
            classes: ["NSComparisonPredicateOperator", "NSPredicateOperator", "NSObject"],
            fields: ["NSOperatorType": .integer(type), "NSModifier": .integer(0), "NSVariant": .integer(type), "NSOptions": .integer(0)])
        return archive.encode(
            classes: ["NSComparisonPredicate", "NSPredicate", "NSObject"],
            fields: ["NSLeftExpression": left, "NSRightExpression": right, "NSPredicateOperator": comparator])
    }

    private mutating func selfExpression() -> PropertyListValue {
        archive.encode(classes: ["NSSelfExpression", "NSExpression", "NSObject"], fields: ["NSExpressionType": .integer(1)])
    }

    // MARK: Values

    private mutating func userInfo(_ info: UserInfo) -> PropertyListValue {
        archive.dictionary(keys: info.map { archive.string($0.key) }, values: info.map { archive.string($0.value) })
    }

    /// `NSDefaultValue`, typed as Core Data holds it (§3.4): integers, booleans, reals inline, strings and
    /// dates as objects; `nil` when the model has none, or one that does not read as its type.
    private mutating func defaultValue(of attribute: AttributeDescription) -> PropertyListValue {
        if attribute.type == .date, let seconds = attribute.defaultDateTimeInterval ?? attribute.defaultValueString.flatMap(Double.init) {
            return archive.encode(classes: ["NSDate", "NSObject"], fields: ["NS.time": .real(seconds)])
        }
        guard let text = attribute.defaultValueString else { return KeyedArchiveEncoder.null }
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            return Int64(text).map(PropertyListValue.integer) ?? KeyedArchiveEncoder.null
        case .double, .float, .decimal:
            // A whole number stays an integer, as in Apple's archives (CareKit's Double default `0`).
            return Int64(text).map(PropertyListValue.integer) ?? Double(text).map(PropertyListValue.real) ?? KeyedArchiveEncoder.null
        case .boolean:
            switch text.lowercased() {
            case "yes", "true", "1": return .bool(true)
            case "no", "false", "0": return .bool(false)
            default: return KeyedArchiveEncoder.null
            }
        case .string:
            return archive.string(text)
        case .uuid:
            guard let uuid = UUID(uuidString: text) else { return KeyedArchiveEncoder.null }
            let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
            return archive.encode(classes: ["NSUUID", "NSObject"], fields: ["NS.uuidbytes": .data(bytes)])
        case .uri:
            guard URL(string: text) != nil else { return KeyedArchiveEncoder.null }
            return archive.encode(
                classes: ["NSURL", "NSObject"], fields: ["NS.base": KeyedArchiveEncoder.null, "NS.relative": archive.string(text)])
        default:
            return KeyedArchiveEncoder.null  // Binary and Transformable defaults are app objects
        }
    }

    /// A derivation expression as Core Data archives it: `a.b` as a key path expression, `a.@count` (and
    /// the other aggregates) as the function `count:` of one, `canonical:(a)` and `now()` as functions of
    /// key paths; `nil` for any other expression.
    private mutating func derivation(_ text: String) -> PropertyListValue {
        if text.hasSuffix(")"), let open = text.firstIndex(of: "(") {
            return function(String(text[..<open]), arguments: String(text[text.index(after: open)..<text.index(before: text.endIndex)]))
        }
        let aggregates = ["@count": "count:", "@sum": "sum:", "@max": "max:", "@min": "min:", "@avg": "average:"]
        var parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var selector: String?
        if let last = parts.last, let aggregate = aggregates[last] {
            selector = aggregate
            parts.removeLast()
        }
        guard !parts.isEmpty, parts.allSatisfy(Self.isKeyPathComponent(_:)) else { return KeyedArchiveEncoder.null }
        let argument = keyPath(parts.joined(separator: "."))
        guard let selector else { return argument }
        return functionExpression(selector, arguments: [argument])
    }

    /// A function of key paths as the model file spells it (`canonical:(name)`, `now()`): the function
    /// expression of that selector over `_NSPredicateUtilities`.
    private mutating func function(_ selector: String, arguments text: String) -> PropertyListValue {
        let name = selector.hasSuffix(":") ? String(selector.dropLast()) : selector
        let paths = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard Self.isKeyPathComponent(name), selector.hasSuffix(":") != paths.isEmpty,
            paths.allSatisfy({ $0.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { Self.isKeyPathComponent(String($0)) } })
        else { return KeyedArchiveEncoder.null }
        let arguments = paths.map { keyPath($0) }
        return functionExpression(selector, arguments: arguments)
    }

    private mutating func functionExpression(_ selector: String, arguments: [PropertyListValue]) -> PropertyListValue {
        let utilities = archive.encode(
            classes: ["NSConstantValueExpression", "NSExpression", "NSObject"],
            fields: ["NSExpressionType": .integer(0), "NSConstantValueClassName": archive.string("_NSPredicateUtilities")])
        return archive.encode(
            classes: ["NSFunctionExpression", "NSExpression", "NSObject"],
            fields: [
                "NSOperand": utilities, "NSSelectorName": archive.string(selector), "NSExpressionType": .integer(4),
                "NSArguments": archive.array(arguments),
            ])
    }

    private mutating func keyPath(_ path: String) -> PropertyListValue {
        let specifier = archive.encode(
            classes: ["NSKeyPathSpecifierExpression", "NSExpression", "NSObject"],
            fields: ["NSExpressionType": .integer(10), "NSKeyPath": archive.string(path)])
        let operand = selfExpression()
        return archive.encode(
            classes: ["NSKeyPathExpression", "NSFunctionExpression", "NSExpression", "NSObject"],
            fields: [
                "NSOperand": operand, "NSSelectorName": archive.string(path.contains(".") ? "valueForKeyPath:" : "valueForKey:"),
                "NSExpressionType": .integer(3), "NSArguments": archive.array([specifier], mutable: true),
            ])
    }

    private static func isKeyPathComponent(_ part: String) -> Bool {
        guard let first = part.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return part.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }

    /// The class name Core Data holds: Xcode's module-relative `.Name` without its dot (the module is
    /// not known here), anything else as written; `nil` when the model names none.
    private static func archivedClassName(_ written: String?) -> String? {
        guard let written = written?.trimmingWhitespace, !written.isEmpty else { return nil }
        if written.hasPrefix(".") { return String(written.dropFirst()) }
        return written
    }

    /// `NSAttributeValueClassName` (§3.4); `nil` for Transformable and the kinds with no value class.
    private static func valueClassName(of type: AttributeType) -> String? {
        switch type {
        case .integer16, .integer32, .integer64, .double, .float, .boolean: "NSNumber"
        case .decimal: "NSDecimalNumber"
        case .string: "NSString"
        case .date: "NSDate"
        case .binaryData: "NSData"
        case .uuid: "NSUUID"
        case .uri: "NSURL"
        case .undefined, .transformable, .objectID, .composite: nil
        }
    }

    private static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        Array(lhs.utf8).lexicographicallyPrecedes(Array(rhs.utf8))
    }
}

extension ManagedObjectModel {
    /// The blob Apple's Core Data keeps in a SQLite store's `Z_MODELCACHE.Z_CONTENT`: this model as a keyed
    /// archive of `NSManagedObjectModel`, compressed as Core Data compresses it.
    ///
    /// ``init(modelCache:)`` reads it back into a model with the same entities, properties and entity
    /// version hashes. Fetched properties, fetch request templates and validation rules are not archived.
    /// - Throws: ``ModelCacheEncodingError`` naming the problem (two entities of one name, a missing or
    ///   looping parent entity, …).
    public func modelCacheContent() throws(ModelCacheEncodingError) -> [UInt8] {
        try ModelCacheEncoder.encode(self)
    }
}
