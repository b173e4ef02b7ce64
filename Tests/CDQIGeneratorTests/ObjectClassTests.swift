import CDQIModel
import Foundation
import Testing

@testable import CDQIGenerator

/// The rules for generated entity classes (`cdqi --objects`, or code generation `class`/`category`).
@Suite struct ObjectClassTests {
    private let all = GeneratorOptions(objectClasses: .all)

    private func entityClass(_ result: ProxyGenerationResult, _ entity: String) throws -> EntityClass {
        try #require(result.generation.entityClass(forEntity: entity))
    }

    @Test func everyAttributeTypeGetsItsSwiftTypeAndOptionality() throws {
        var entity = makeEntity("Thing")
        let types: [AttributeType] = [
            .string, .integer16, .integer32, .integer64, .double, .float, .decimal, .boolean,
            .date, .binaryData, .uuid, .uri, .transformable,
        ]
        entity.attributes = types.enumerated().map { AttributeDescription(name: "a\($0.offset)", type: $0.element) }
        entity.attributes.append(AttributeDescription(name: "optionalText", type: .string, isOptional: true))
        let result = generate([entity], options: all)
        let kinds = try entityClass(result, "Thing").properties.map(\.kind)
        // Non-optional in the model: non-optional in Swift, except the types with no zero value (Date,
        // UUID, URL) and transformable data, which stay optional.
        #expect(
            kinds == [
                .attribute(.string, isOptional: false), .attribute(.int16, isOptional: false),
                .attribute(.int32, isOptional: false), .attribute(.int64, isOptional: false),
                .attribute(.double, isOptional: false), .attribute(.float, isOptional: false),
                .attribute(.decimal, isOptional: false), .attribute(.bool, isOptional: false),
                .attribute(.date, isOptional: true), .attribute(.data, isOptional: false),
                .attribute(.uuid, isOptional: true), .attribute(.url, isOptional: true),
                .attribute(.data, isOptional: false), .attribute(.string, isOptional: true),
            ])
        #expect(try entityClass(result, "Thing").properties.map(\.index) == Array(0...13))
        #expect(result.source.contains("var a1: Int16 {\n        get { cdqiInt16(at: 1) ?? 0 }"))
        #expect(result.source.contains("var a9: Data {\n        get { cdqiData(at: 9) ?? Data() }"))
        #expect(result.source.contains("var a8: Date? {\n        get { cdqiDate(at: 8) }"))
    }

    @Test func typesWithoutAStoredValueAreLeftOutWithAWarning() throws {
        let entity = makeEntity("Thing", attributes: [("loose", .undefined), ("id", .objectID), ("kept", .string)])
        let result = generate([entity], options: all)
        #expect(try entityClass(result, "Thing").properties.map(\.name) == ["kept"])
        // The index of `kept` counts the left-out attributes: the runtime lays every attribute out.
        #expect(try entityClass(result, "Thing").properties.map(\.index) == [2])
        #expect(result.warnings(mentioning: "'loose'").contains { $0.contains("class gets no property") })
        #expect(result.warnings(mentioning: "'id'").contains { $0.contains("class gets no property") })
    }

    @Test func namesOfManagedObjectMembersGetTheSuffixValue() throws {
        let entity = makeEntity(
            "Thing",
            attributes: [
                ("description", .string), ("entity", .string), ("self", .boolean),
                ("value", .string), ("first-name", .string),
            ])
        let result = generate([entity], options: all)
        #expect(
            try entityClass(result, "Thing").properties.map(\.name)
                == ["descriptionValue", "entityValue", "selfValue", "value", "first_name"])
        #expect(result.warnings(mentioning: "'description'").contains { $0.contains("'descriptionValue'") })
        #expect(result.source.contains("var descriptionValue: String? {"))
    }

    @Test func modelCodeGenerationDecidesWithoutObjects() throws {
        var full = makeEntity("Full", attributes: [("name", .string)])
        full.codeGenerationType = .class
        var category = makeEntity("Partial", attributes: [("name", .string)])
        category.codeGenerationType = .category
        let manual = makeEntity("Manual", attributes: [("name", .string)])
        let result = generate([full, category, manual])
        #expect(result.generation.entityClasses.map(\.entityName) == ["Full", "Partial"])
        let partial = try entityClass(result, "Partial")
        #expect(partial.form == .category)
        #expect(partial.fileName == "Partial+Properties.swift")
        #expect(partial.entityNameDeclaration == .none)
        #expect(result.source.contains("nonisolated extension Partial {\n    var name: String? {"))
        // The category's hand-written class is registered too.
        #expect(result.source.contains("(\"Partial\", Partial.self),"))
        #expect(!result.source.contains("Manual.self"))
        // --objects makes full classes of all three.
        let objects = generate([full, category, manual], options: all)
        #expect(objects.generation.entityClasses.map(\.form) == [.fullClass, .fullClass, .fullClass])
    }

    @Test func classesFollowInheritanceAndCarryPropertiesOfClasslessAncestors() throws {
        let root = makeEntity("Root", attributes: [("a", .string)], relationships: [("link", "Leaf")])
        let middle = makeEntity("Middle", className: .some(nil), parent: "Root", attributes: [("b", .integer32)])
        let leaf = makeEntity("Leaf", parent: "Middle", attributes: [("c", .double)])
        let result = generate([root, middle, leaf], options: all)
        let leafClass = try entityClass(result, "Leaf")
        // Middle has no class: Leaf's class subclasses Root's and carries Middle's attribute too.
        #expect(leafClass.superclassName == "Root")
        #expect(leafClass.properties.map { "\($0.name)@\($0.index)" } == ["b@1", "c@2"])
        #expect(leafClass.entityNameDeclaration == .overridden)
        #expect(try entityClass(result, "Root").isFinal == false)
        #expect(result.generation.entityClass(forEntity: "Middle") == nil)
        #expect(result.warnings(mentioning: "entity 'Middle' has no class name").count == 1)
        // The to-one to Leaf is typed with Leaf's class.
        #expect(try entityClass(result, "Root").properties.last?.kind == .toOne(className: "Leaf"))
        // Only Root conforms to Entity.
        #expect(result.proxy("Root")?.conformingClassName == "Root")
        #expect(result.proxy("Leaf")?.conformingClassName == nil)
    }

    @Test func aPropertyLaidOutDifferentlyInASubEntityGetsNoAccessor() throws {
        // Root's relationship `shared` is skipped in Child's layout, where an attribute takes the name,
        // so its position differs between the two entities.
        let root = makeEntity("Root", relationships: [("other", "Root"), ("shared", "Root"), ("last", "Root")])
        let child = makeEntity("Child", parent: "Root", attributes: [("shared", .string)])
        let result = generate([root, child], options: all)
        // Root lays out other 0, shared 1, last 2; Child lays out other 0, last 1 (its attribute takes
        // `shared`). Only `other` sits at the same position in both.
        #expect(try entityClass(result, "Root").properties.map(\.name) == ["other"])
        #expect(try entityClass(result, "Root").properties.map(\.index) == [0])
        #expect(result.warnings(mentioning: "laid out differently in sub-entity 'Child'").count == 2)
    }

    @Test func classNamesThatShadowTypesMakeGeneratedCodeQualifyThem() throws {
        let date = makeEntity("Date", attributes: [("when", .date), ("text", .string)], relationships: [("items", "Set")])
        var items = RelationshipDescription(name: "items", destinationEntityName: "Set")
        items.isToMany = true
        var dateEntity = date
        dateEntity.relationships = [items]
        let set = makeEntity("Set", attributes: [("count", .integer64)])
        let result = generate([dateEntity, set], options: all)
        #expect(result.source.contains("var when: Foundation.Date? {"))
        #expect(result.source.contains("var items: Swift.Set<Set> {"))
        #expect(result.source.contains("get { Swift.Set(cdqiToMany(at: 0).compactMap { $0 as? Set }) }"))
    }

    @Test func theModelTypeAvoidsTakenNames() throws {
        let result = generate([makeEntity("Model", attributes: [("x", .string)])], options: all)
        #expect(result.generation.modelTypeName == "ModelManagedObjectModel")
        // A model whose name ends in "Model" keeps it: no "ModelModel".
        #expect(generate([makeEntity("Item")]).generation.modelTypeName == "Model")
        let module = generate([makeEntity("Foundation", attributes: [("x", .string)])], options: all)
        #expect(module.generation.entityClasses.isEmpty)
        #expect(module.warnings(mentioning: "name of a module").count == 1)
    }

    @Test func aClassNamedOtherThanItsEntityDeclaresTheNameInTheClass() throws {
        let entity = makeEntity("Person", className: "PersonMO", attributes: [("name", .string)])
        let result = generate([entity], options: all)
        #expect(result.source.contains("final class PersonMO: ManagedObject {\n    class var cdqiEntityName: String { \"Person\" }"))
        // The conformance leaves it to the class (declaring it twice would not compile).
        #expect(result.proxy("Person")?.conformingClassName == "PersonMO")
        #expect(!result.source.contains("static var cdqiEntityName"))
    }

    @Test func onlyClassesGeneratedWholeDownFromManagedObjectLetACursorReuseTheirObjects() throws {
        // Hand (category: the class is written by hand) → Sub (full) → Leaf (full); Alone (full) stands apart.
        var hand = makeEntity("Hand", attributes: [("a", .string)])
        hand.codeGenerationType = .category
        var sub = makeEntity("Sub", parent: "Hand", attributes: [("b", .string)])
        sub.codeGenerationType = .class
        var leaf = makeEntity("Leaf", parent: "Sub", attributes: [("c", .string)])
        leaf.codeGenerationType = .class
        var alone = makeEntity("Alone", attributes: [("d", .string)])
        alone.codeGenerationType = .class
        let result = generate([hand, sub, leaf, alone])
        // Sub and Leaf inherit Hand's class, which may have stored properties, an initializer or a deinit.
        #expect(try entityClass(result, "Hand").reusesObjects == false)
        #expect(try entityClass(result, "Sub").reusesObjects == false)
        #expect(try entityClass(result, "Leaf").reusesObjects == false)
        #expect(try entityClass(result, "Alone").reusesObjects == true)
        #expect(result.source.contains("override class var cdqiReusableClass: ManagedObject.Type { Alone.self }"))
        #expect(result.source.components(separatedBy: "cdqiReusableClass").count == 2)
        // With --objects every class is generated whole: each names itself.
        let objects = generate([hand, sub, leaf, alone], options: all)
        for name in ["Hand", "Sub", "Leaf", "Alone"] {
            #expect(try entityClass(objects, name).reusesObjects == true)
            #expect(objects.source.contains("override class var cdqiReusableClass: ManagedObject.Type { \(name).self }"))
        }
    }
}
