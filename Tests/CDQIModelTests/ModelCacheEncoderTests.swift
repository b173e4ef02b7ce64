import Foundation
import Testing

@testable import CDQIModel

/// Writing a model as Core Data's `Z_MODELCACHE` blob: what the decoder reads back has the original's
/// entities, properties and relationships, and the same entity version hashes (computed independently
/// from the original model).
@Suite("Z_MODELCACHE encoding")
struct ModelCacheEncoderTests {
    /// Encodes, decodes, and checks the decoded model against the original.
    static func checkRoundTrip(_ model: ManagedObjectModel, _ label: String) throws {
        let blob = try model.modelCacheContent()
        let decoded = try ManagedObjectModel(modelCache: blob)
        let original = ModelVersionHashes(model: model)
        let again = ModelVersionHashes(model: decoded)
        #expect(again.entityHashes == original.entityHashes, "\(label): entity version hashes differ")
        #expect(again.digest == original.digest, "\(label)")
        let expected = ModelSummary.lines(of: model), actual = ModelSummary.lines(of: decoded)
        #expect(actual == expected, "\(label): \(zip(expected, actual).first { $0 != $1 }.map { "\($0) vs \($1)" } ?? "lengths differ")")
    }

    @Test("each fixture model decodes back to the same entities, properties and version hashes", arguments: ["Company", "Developers", "Library"])
    func fixtures(name: String) throws {
        let model = try ModelLoader().load(url: TestPaths.fixture("\(name).xcdatamodeld")).model
        try Self.checkRoundTrip(model, name)
    }

    @Test(
        "every version of every corpus bundle decodes back with the same structure and version hashes",
        .enabled(if: TestPaths.corpusModels != nil, TestPaths.corpusAbsent))
    func corpus() throws {
        let corpus = try #require(TestPaths.corpusModels)
        let loader = ModelLoader()
        var versions = 0, withComposites = 0
        for bundle in try FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted() {
            let url = corpus.appendingPathComponent(bundle)
            let names: [String?] =
                bundle.hasSuffix(".xcdatamodeld") ? ((try? loader.versions(ofBundle: url).names) ?? []) : bundle.hasSuffix(".xcdatamodel") ? [nil] : []
            for name in names {
                guard let model = try? loader.load(url: url, version: name).model else { continue }
                versions += 1
                // Models with Composite attributes are refused, naming each such attribute; nothing else is.
                if model.entities.contains(where: { $0.attributes.contains { $0.type == .composite } }) {
                    #expect(throws: ModelCacheEncodingError.self) { try model.modelCacheContent() }
                    withComposites += 1
                    continue
                }
                try Self.checkRoundTrip(model, "\(bundle) \(name ?? "")")
            }
        }
        // CorpusTests: 280 versions inside bundles load, and single-version .xcdatamodel folders besides.
        #expect(versions >= 280)
        #expect(withComposites <= 2)
        print("model cache round trip: \(versions - withComposites) corpus model versions; \(withComposites) refused for Composite attributes")
    }

    @Test("a model built in code: sub-entities, every attribute type, defaults, ordered and bounded relationships, indexes")
    func builtInCode() throws {
        var animal = EntityDescription(name: "Animal", representedClassName: ".Animal")
        animal.isAbstract = true
        animal.renamingIdentifier = "Creature"
        animal.versionHashModifier = "v2"
        animal.userInfo = ["sync": "NO"]
        var name = AttributeDescription(name: "name", type: .string)
        name.defaultValueString = "Rex"
        name.renamingIdentifier = "title"
        name.minValueString = "1"
        name.maxValueString = "40"
        var born = AttributeDescription(name: "born", type: .date, isOptional: true)
        born.defaultDateTimeInterval = 86_400.5
        born.minDateTimeInterval = -1_000.25
        var weight = AttributeDescription(name: "weight", type: .double)
        weight.defaultValueString = "12.25"
        var legs = AttributeDescription(name: "legs", type: .integer16)
        legs.defaultValueString = "4"
        legs.isIndexed = true
        legs.minValueString = "0"
        legs.maxValueString = "8"
        weight.maxValueString = "99.5"
        var tame = AttributeDescription(name: "tame", type: .boolean)
        tame.defaultValueString = "YES"
        var tag = AttributeDescription(name: "tag", type: .uuid, isOptional: true)
        tag.defaultValueString = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
        var page = AttributeDescription(name: "page", type: .uri, isOptional: true)
        page.defaultValueString = "https://example.com/a"
        var photo = AttributeDescription(name: "photo", type: .binaryData, isOptional: true)
        photo.preservesValueInHistoryOnDeletion = true
        var color = AttributeDescription(name: "color", type: .transformable, isOptional: true)
        color.valueTransformerName = "NSSecureUnarchiveFromData"
        var mood = AttributeDescription(name: "mood", type: .integer64, isOptional: true)
        mood.isTransient = true
        mood.versionHashModifier = "3"
        let price = AttributeDescription(name: "price", type: .decimal, isOptional: true)
        animal.attributes = [name, born, weight, legs, tame, tag, page, photo, color, mood, price]
        animal.uniquenessConstraints = [UniquenessConstraint(properties: ["name", "legs"])]
        animal.fetchIndexes = [
            FetchIndex(name: "byNameAndLegs", elements: [.init(property: "name"), .init(property: "legs", isAscending: false)])
        ]
        var owner = RelationshipDescription(name: "owner", destinationEntityName: "Keeper", inverseName: "animals", inverseEntityName: "Keeper")
        owner.isOptional = true
        owner.deleteRule = .deny
        owner.maxCount = 1
        animal.relationships = [owner]

        var dog = EntityDescription(name: "Dog", representedClassName: "Zoo.Dog", parentEntityName: "Animal")
        var barks = AttributeDescription(name: "barks", type: .integer32)
        barks.defaultValueString = "-7"
        dog.attributes = [barks]
        var puppy = EntityDescription(name: "Puppy", parentEntityName: "Dog")
        puppy.attributes = [AttributeDescription(name: "age", type: .float, isOptional: true)]

        var keeper = EntityDescription(name: "Keeper")
        keeper.attributes = [AttributeDescription(name: "email", type: .string)]
        var animals = RelationshipDescription(
            name: "animals", destinationEntityName: "Animal", inverseName: "owner", inverseEntityName: "Animal", isToMany: true)
        animals.isOrdered = true
        animals.minCount = 1
        animals.maxCount = 12
        animals.deleteRule = .cascade
        animals.userInfo = ["note": "ordered"]
        var rivals = RelationshipDescription(name: "rivals", destinationEntityName: "Keeper", isToMany: true)
        rivals.isOptional = true
        rivals.deleteRule = .noAction
        keeper.relationships = [animals, rivals]
        keeper.compoundIndexes = [FetchIndex(name: "", elements: [.init(property: "email")])]

        var model = ManagedObjectModel(entities: [keeper, puppy, dog, animal])
        model.versionIdentifier = "7"
        model.configurations = [ModelConfiguration(name: "Zoo", memberEntityNames: ["Animal", "Keeper"])]
        try Self.checkRoundTrip(model, "built in code")

        let decoded = try ManagedObjectModel(modelCache: try model.modelCacheContent())
        // The values, by hand: what Core Data's archive holds for each.
        let decodedAnimal = try #require(decoded.entity(named: "Animal"))
        #expect(decodedAnimal.representedClassName == "Animal")  // Xcode's ".Animal" without the module
        #expect(decodedAnimal.renamingIdentifier == "Creature")
        #expect(decodedAnimal.versionHashModifier == "v2")
        #expect(decodedAnimal.userInfo["sync"] == "NO")
        #expect(decodedAnimal.isAbstract)
        #expect(decodedAnimal.attribute(named: "born")?.defaultDateTimeInterval == 86_400.5)
        #expect(decodedAnimal.attribute(named: "weight")?.defaultValueString == "12.25")
        #expect(decodedAnimal.attribute(named: "tame")?.defaultValueString == "YES")
        #expect(decodedAnimal.attribute(named: "tag")?.defaultValueString == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        #expect(decodedAnimal.attribute(named: "page")?.defaultValueString == "https://example.com/a")
        #expect(decodedAnimal.attribute(named: "photo")?.preservesValueInHistoryOnDeletion == true)
        #expect(decodedAnimal.attribute(named: "color")?.valueTransformerName == "NSSecureUnarchiveFromData")
        #expect(decodedAnimal.attribute(named: "mood")?.versionHashModifier == "3")
        #expect(decodedAnimal.attribute(named: "legs")?.isIndexed == true)
        #expect(decodedAnimal.attribute(named: "legs")?.minValueString == "0")
        #expect(decodedAnimal.attribute(named: "legs")?.maxValueString == "8")
        #expect(decodedAnimal.attribute(named: "weight")?.maxValueString == "99.5")
        #expect(decodedAnimal.attribute(named: "weight")?.minValueString == nil)
        #expect(decodedAnimal.attribute(named: "name")?.minValueString == "1")
        #expect(decodedAnimal.attribute(named: "name")?.maxValueString == "40")
        #expect(decodedAnimal.attribute(named: "born")?.minDateTimeInterval == -1_000.25)
        #expect(decodedAnimal.attribute(named: "born")?.maxDateTimeInterval == nil)
        #expect(decodedAnimal.uniquenessConstraints == [UniquenessConstraint(properties: ["name", "legs"])])
        #expect(decodedAnimal.fetchIndexes.first?.elements.map(\.isAscending) == [true, false])
        #expect(decoded.entity(named: "Dog")?.representedClassName == "Zoo.Dog")
        #expect(decoded.entity(named: "Dog")?.attribute(named: "barks")?.defaultValueString == "-7")
        #expect(decoded.entity(named: "Dog")?.attributes.map(\.name) == ["barks"])  // inherited ones are Animal's
        #expect(decoded.entity(named: "Puppy")?.parentEntityName == "Dog")
        let decodedAnimals = try #require(decoded.entity(named: "Keeper")?.relationship(named: "animals"))
        #expect(decodedAnimals.isOrdered && decodedAnimals.isToMany)
        #expect(decodedAnimals.minCount == 1 && decodedAnimals.maxCount == 12)
        #expect(decodedAnimals.deleteRule == .cascade)
        #expect(decodedAnimals.userInfo["note"] == "ordered")
        #expect(decoded.entity(named: "Keeper")?.relationship(named: "rivals")?.deleteRule == .noAction)
        #expect(decoded.entity(named: "Keeper")?.compoundIndexes.first?.elements.compactMap(\.property) == ["email"])
        #expect(decoded.versionIdentifier == "7")
        #expect(decoded.configurations == [ModelConfiguration(name: "Zoo", memberEntityNames: ["Animal", "Keeper"])])
    }

    @Test("the archive has Core Data's layout: root object 1, NSKnownKeysDictionary1 of sorted entities, flag words")
    func archiveLayout() throws {
        var book = EntityDescription(name: "Book", representedClassName: "Book")
        book.attributes = [AttributeDescription(name: "title", type: .string, isOptional: true)]
        let author = EntityDescription(name: "Author")
        let plist = try ModelCacheEncoder.propertyList(ManagedObjectModel(entities: [book, author]))
        // The blob is that property list as raw DEFLATE.
        #expect(try RawDeflate.inflate(try ManagedObjectModel(entities: [book, author]).modelCacheContent(), limit: 1 << 20) == plist)
        let archive = try KeyedArchive(try BinaryPropertyListReader.parse(plist))
        #expect(archive.top["root"] == .uid(1))
        let root = try #require(try archive.object(archive.top["root"]))
        #expect(root.className == "NSManagedObjectModel")
        let entities = try #require(try archive.object(root["NSEntities"]))
        #expect(entities.className == "NSKnownKeysDictionary1")
        let mapping = try #require(try archive.object(entities["searchMapping"]))
        #expect(try archive.elements(mapping["keys"]).map { try archive.string($0) } == ["Author", "Book"])
        #expect(mapping["length"] == .integer(2))
        let values = try archive.elements(entities["values"])
        let bookObject = try #require(try archive.object(values[1]))
        #expect(try archive.string(bookObject["NSEntityName"]) == "Book")
        #expect(try archive.string(bookObject["NSRenamingIdentifier"]) == "Book")  // the name when unset
        let title = try #require(try archive.object(try archive.entries(bookObject["NSProperties"]).first?.value))
        // An optional String with no user info, modifier or validation: bits 0, 1, 4, 5, 6, 7 (§3.8), the
        // value seen on such attributes in Apple's archives (243).
        #expect(title["_P"] == .integer(243))
        #expect(title["NSAttributeType"] == .integer(700))
        #expect(try archive.string(title["NSAttributeValueClassName"]) == "NSString")
        #expect(title["NSIsOptional"] == .bool(true))
        #expect(try archive.object(title["NSEntity"])?.reference == bookObject.reference)
    }

    @Test("a minimum is archived as Core Data archives NoteStore's: SELF >= 0, warning 1620, flag bits 4 and 5 clear")
    func validationLayout() throws {
        var account = EntityDescription(name: "Account")
        var failures = AttributeDescription(name: "failures", type: .integer16, isOptional: true)
        failures.minValueString = "0"
        account.attributes = [failures]
        let archive = try KeyedArchive(try BinaryPropertyListReader.parse(try ModelCacheEncoder.propertyList(ManagedObjectModel(entities: [account]))))
        let root = try #require(try archive.object(archive.top["root"]))
        let entity = try #require(try archive.object(try archive.elements(try archive.object(root["NSEntities"])?["values"]).first))
        let attribute = try #require(try archive.object(try archive.entries(entity["NSProperties"]).first?.value))
        // Optional, no user info, no modifier, with validation: bits 0, 1, 6, 7 = 195, NoteStore's value.
        #expect(attribute["_P"] == .integer(195))
        let warnings = try archive.elements(attribute["NSValidationWarnings"]).map { try archive.resolve($0) }
        #expect(warnings == [.integer(1620)])
        let predicates = try archive.elements(attribute["NSValidationPredicates"])
        #expect(predicates.count == 1)
        let predicate = try #require(try archive.object(predicates.first))
        #expect(predicate.className == "NSComparisonPredicate")
        #expect(try archive.object(predicate["NSLeftExpression"])?.className == "NSSelfExpression")
        let right = try #require(try archive.object(predicate["NSRightExpression"]))
        #expect(right.className == "NSConstantValueExpression")
        #expect(right["NSConstantValue"] == .integer(0))
        let comparator = try #require(try archive.object(predicate["NSPredicateOperator"]))
        #expect(comparator.className == "NSComparisonPredicateOperator")
        #expect(comparator["NSOperatorType"] == .integer(3))  // >= (public NSComparisonPredicate.Operator)
        #expect(comparator["NSVariant"] == .integer(3) && comparator["NSModifier"] == .integer(0) && comparator["NSOptions"] == .integer(0))
    }

    @Test("models Core Data could not hold are refused with every problem named")
    func invalidModels() {
        let twins = ManagedObjectModel(entities: [EntityDescription(name: "A"), EntityDescription(name: "A")])
        #expect(throws: ModelCacheEncodingError.invalidModel(["two entities are named 'A'"])) { try twins.modelCacheContent() }
        let orphan = ManagedObjectModel(entities: [EntityDescription(name: "B", parentEntityName: "Missing")])
        #expect(throws: ModelCacheEncodingError.invalidModel(["the parent 'Missing' of entity 'B' is not in the model"])) {
            try orphan.modelCacheContent()
        }
        let loop = ManagedObjectModel(entities: [EntityDescription(name: "C", parentEntityName: "D"), EntityDescription(name: "D", parentEntityName: "C")])
        #expect(
            throws: ModelCacheEncodingError.invalidModel([
                "the parents of entity 'C' loop back to 'C'", "the parents of entity 'D' loop back to 'D'",
            ])
        ) { try loop.modelCacheContent() }
        var parent = EntityDescription(name: "P")
        parent.attributes = [AttributeDescription(name: "x", type: .string)]
        var child = EntityDescription(name: "Q", parentEntityName: "P")
        child.attributes = [AttributeDescription(name: "x", type: .string)]
        #expect(throws: ModelCacheEncodingError.invalidModel(["entity 'Q' has two properties named 'x' (its own and inherited ones)"])) {
            try ManagedObjectModel(entities: [parent, child]).modelCacheContent()
        }
    }
}

/// A model as the lines a comparison of two models needs: what the model cache holds, in a fixed order
/// and with the spellings that mean the same thing made equal (a to-one's absent maximum is 1, an
/// absent minimum 0, `"0"` and `"0.0"` the same Double default).
enum ModelSummary {
    static func lines(of model: ManagedObjectModel) -> [String] {
        var lines = ["model identifier=\(model.versionIdentifier.flatMap { $0.isEmpty ? nil : $0 } ?? "-")"]
        for configuration in model.configurations.sorted(by: { $0.name < $1.name }) {
            lines.append("configuration \(configuration.name): \(configuration.memberEntityNames.sorted())")
        }
        for entity in model.entities.sorted(by: { $0.name < $1.name }) {
            lines.append(
                "entity \(entity.name) class=\(entity.className ?? "-") parent=\(entity.parentEntityName ?? "-") abstract=\(entity.isAbstract) "
                    + "renaming=\(renaming(entity.renamingIdentifier, entity.name)) modifier=\(entity.versionHashModifier ?? "-") info=\(info(entity.userInfo))"
            )
            for attribute in entity.attributes.sorted(by: { $0.name < $1.name }) {
                let derived = attribute.isDerived ? " derived=\(attribute.derivationExpression ?? "-")" : ""
                lines.append(
                    "  attribute \(attribute.name) \(attribute.type.rawValue) optional=\(attribute.isOptional) transient=\(attribute.isTransient) "
                        + "indexed=\(attribute.isIndexed) spotlight=\(attribute.isIndexedBySpotlight) transformer=\(attribute.valueTransformerName ?? "-") "
                        + "preserve=\(attribute.preservesValueInHistoryOnDeletion) renaming=\(renaming(attribute.renamingIdentifier, attribute.name)) "
                        + "modifier=\(attribute.versionHashModifier ?? "-") info=\(info(attribute.userInfo)) default=\(defaultValue(attribute))\(derived) "
                        + "bounds=\(bounds(attribute))")
            }
            for relationship in entity.relationships.sorted(by: { $0.name < $1.name }) {
                lines.append(
                    "  relationship \(relationship.name) -> \(relationship.destinationEntityName) inverse=\(relationship.inverseName ?? "-") "
                        + "toMany=\(relationship.isToMany) ordered=\(relationship.isOrdered) optional=\(relationship.isOptional) "
                        + "transient=\(relationship.isTransient) min=\(relationship.minCount ?? 0) "
                        + "max=\(relationship.maxCount ?? (relationship.isToMany ? 0 : 1)) delete=\(relationship.deleteRule.rawValue) "
                        + "spotlight=\(relationship.isIndexedBySpotlight) renaming=\(renaming(relationship.renamingIdentifier, relationship.name)) "
                        + "modifier=\(relationship.versionHashModifier ?? "-") info=\(info(relationship.userInfo))")
            }
            for constraint in entity.uniquenessConstraints { lines.append("  unique \(constraint.properties)") }
            for index in entity.fetchIndexes where index.elements.allSatisfy({ $0.property != nil }) {
                // The decoder drops a one-property index named after its property (§4.2): so does this.
                if index.elements.count == 1, index.elements.first?.property == index.name { continue }
                let elements = index.elements.map { "\($0.property ?? "-") \($0.kind.rawValue) \($0.isAscending)" }
                lines.append("  fetchIndex \(index.name): \(elements)")
            }
            for index in entity.compoundIndexes { lines.append("  compoundIndex \(index.elements.compactMap(\.property))") }
        }
        return lines
    }

    /// A renaming identifier equal to the name is no renaming (Core Data archives the name when none is set).
    private static func renaming(_ identifier: String?, _ name: String) -> String {
        guard let identifier, !identifier.isEmpty, identifier != name else { return "-" }
        return identifier
    }

    private static func info(_ userInfo: UserInfo) -> String {
        userInfo.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: ",")
    }

    /// The minimum and maximum Core Data validates: a number's or a date's value, a string's length.
    private static func bounds(_ attribute: AttributeDescription) -> String {
        switch attribute.type {
        case .integer16, .integer32, .integer64, .decimal, .double, .float:
            return
                "\(attribute.minValueString.flatMap(Double.init).map { "\($0)" } ?? "-")...\(attribute.maxValueString.flatMap(Double.init).map { "\($0)" } ?? "-")"
        case .string:
            return
                "\(attribute.minValueString.flatMap { Int64($0) }.map { "\($0)" } ?? "-")...\(attribute.maxValueString.flatMap { Int64($0) }.map { "\($0)" } ?? "-")"
        case .date:
            let minimum = attribute.minDateTimeInterval ?? attribute.minValueString.flatMap(Double.init)
            let maximum = attribute.maxDateTimeInterval ?? attribute.maxValueString.flatMap(Double.init)
            return "\(minimum.map { "\($0)" } ?? "-")...\(maximum.map { "\($0)" } ?? "-")"
        default:
            return "-"
        }
    }

    private static func defaultValue(_ attribute: AttributeDescription) -> String {
        if attribute.type == .date, let seconds = attribute.defaultDateTimeInterval ?? attribute.defaultValueString.flatMap(Double.init) {
            return "date \(seconds)"
        }
        guard let text = attribute.defaultValueString else { return "-" }
        switch attribute.type {
        case .integer16, .integer32, .integer64: return Int64(text).map { "int \($0)" } ?? "-"
        case .double, .float, .decimal: return Double(text).map { "real \($0)" } ?? "-"
        case .boolean:
            switch text.lowercased() {
            case "yes", "true", "1": return "true"
            case "no", "false", "0": return "false"
            default: return "-"
            }
        case .string: return "string \(text)"
        case .uuid: return UUID(uuidString: text).map { "uuid \($0.uuidString)" } ?? "-"
        case .uri: return URL(string: text) == nil ? "-" : "uri \(text)"
        default: return "-"
        }
    }
}
