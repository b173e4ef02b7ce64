import CDQIGenerator
import CDQIModel
import Testing

/// Each rule for what cannot be generated as the model says: what is written instead, and the warning.
@Suite struct ClashRuleTests {
    @Test(arguments: [String?.none, "", "NSManagedObject", "  "])
    func entityWithoutClassGetsProxyButNoConformance(className: String?) {
        let result = generate([makeEntity("Note", className: .some(className), attributes: [("text", .string)])])
        #expect(result.source.contains("final class NoteAttribute: EntityAttribute, Subqueryable {"))
        #expect(result.source.contains("lazy var text = StringAttribute(key: \"text\", parent: self)"))
        #expect(!result.source.contains("extension"))
        #expect(result.proxy("Note")?.conformingClassName == nil)
        #expect(result.messages.count == 1)
        #expect(result.warnings(mentioning: "entity 'Note' has no class of its own").count == 1)
    }

    @Test func moduleQualifiedClassNamesLoseTheirModule() {
        let result = generate([makeEntity("Employee", className: "App.EmployeeMO"), makeEntity("Boss", className: ".Boss")])
        #expect(result.source.contains("extension EmployeeMO: Entity {"))
        #expect(result.source.contains("extension Boss: Entity {"))
        #expect(result.messages.isEmpty)
    }

    @Test func classNamedDifferentlyFromEntityDeclaresTheEntityName() {
        let result = generate([makeEntity("Employee", className: "EmployeeMO")])
        let expected = """
            extension EmployeeMO: Entity {
                typealias CDQIAttribute = EmployeeAttribute
                static var cdqiEntityName: String { "Employee" }
            }
            """
        #expect(result.source.contains(expected))
    }

    @Test func publicOptionMakesEveryDeclarationPublic() {
        let result = generate(
            [makeEntity("Employee", className: "EmployeeMO", attributes: [("age", .integer16)])],
            options: GeneratorOptions(accessLevel: .public, suffix: "Proxy", indentWidth: 3))
        let expected = """
            public nonisolated final class EmployeeProxy: EntityAttribute, Subqueryable {
               public private(set) lazy var age = Integer16Attribute(key: "age", parent: self)
            }

            nonisolated extension EmployeeMO: Entity {
               public typealias CDQIAttribute = EmployeeProxy
               public static var cdqiEntityName: String { "Employee" }
            }

            """
        #expect(result.proxySource.hasSuffix(expected))
        // The embedded model is always written; a model named "Model" gives the type "Model".
        #expect(result.generation.files().map(\.name) == ["EmployeeProxy.swift", "Model.swift"])
    }

    @Test func sharedClassConformsOnceForTheRootMostEntity() {
        // Child comes first in the file, but Base is its ancestor, so Base claims the class.
        let result = generate([
            makeEntity("Child", className: "Thing", parent: "Base"),
            makeEntity("Base", className: "Thing"),
            makeEntity("Other", className: "Thing"),
        ])
        #expect(result.proxy("Base")?.conformingClassName == "Thing")
        #expect(result.proxy("Child")?.conformingClassName == nil)
        #expect(result.proxy("Other")?.conformingClassName == nil)
        #expect(result.source.components(separatedBy: "extension Thing: Entity {").count == 2)
        #expect(result.source.contains("typealias CDQIAttribute = BaseAttribute"))
        #expect(result.warnings(mentioning: "entity 'Child' uses class 'Thing', which entity 'Base' also uses").count == 1)
        #expect(result.warnings(mentioning: "entity 'Other' uses class 'Thing', which entity 'Base' also uses").count == 1)
        #expect(result.messages.count == 2)
    }

    @Test(arguments: [
        ("String", "StringEntityAttribute"), ("Entity", "EntityEntityAttribute"), ("Scalar", "ScalarEntityAttribute"),
        ("Date", "DateEntityAttribute"), ("Bool", "BoolEntityAttribute"), ("Transformable", "TransformableEntityAttribute"),
        ("URI", "URIEntityAttribute"), ("Integer16", "Integer16EntityAttribute"),
    ])
    func proxyNameClashingWithRuntimeTypeIsRenamed(entity: String, proxy: String) {
        let result = generate([
            makeEntity(entity, className: "\(entity)MO", line: 7),
            makeEntity("User", relationships: [("link", entity)]),
        ])
        #expect(result.proxy(entity)?.proxyName == proxy)
        #expect(result.proxy(entity)?.fileName == "\(proxy).swift")
        #expect(result.source.contains("final class \(proxy): EntityAttribute, Subqueryable {}"))
        // Relationships to the entity use the renamed proxy.
        #expect(result.source.contains("lazy var link = \(proxy)(key: \"link\", parent: self)"))
        let warning = result.generation.diagnostics.first
        #expect(warning?.location?.line == 7)
        #expect(warning?.message.contains("is named '\(proxy)' because '\(entity)Attribute' is a type of CoreDataQueryInterface") == true)
        #expect(result.messages.count == 1)
    }

    @Test func renamedProxyAvoidsAnotherEntitysProxyAndClassNames() {
        let result = generate([
            makeEntity("StringEntity"),  // takes StringEntityAttribute first
            makeEntity("String"),  // StringAttribute is taken by the runtime
            makeEntity("Foo", className: "FooAttribute"),  // its own class is named like its proxy
        ])
        #expect(result.proxy("StringEntity")?.proxyName == "StringEntityAttribute")
        #expect(result.proxy("String")?.proxyName == "StringEntityAttribute2")
        #expect(result.proxy("Foo")?.proxyName == "FooEntityAttribute")
        #expect(result.warnings(mentioning: "'FooAttribute' is the name of a class in the model").count == 1)
    }

    @Test func customSuffixChangesClashes() {
        // With suffix Proxy, entity String no longer clashes.
        let result = generate([makeEntity("String", className: "StringMO")], options: GeneratorOptions(suffix: "Proxy"))
        #expect(result.proxy("String")?.proxyName == "StringProxy")
        #expect(result.messages.isEmpty)
    }

    @Test func classNamedLikeARuntimeTypeIsConformedWithTheQualifiedProtocol() {
        let result = generate([makeEntity("Entity", attributes: [("name", .string)])])
        #expect(result.source.contains("final class EntityEntityAttribute: EntityAttribute, Subqueryable {"))
        #expect(result.source.contains("\nnonisolated extension Entity: CoreDataQueryInterface.Entity {"))
        #expect(result.source.contains("typealias CDQIAttribute = EntityEntityAttribute"))
        #expect(result.generation.shadowedRuntimeNames == ["Entity"])

        let shadowing = generate([makeEntity("Text", className: "StringAttribute", attributes: [("body", .string)])])
        #expect(shadowing.source.contains("lazy var body = CoreDataQueryInterface.StringAttribute(key: \"body\", parent: self)"))
    }

    @Test func keywordsAreEscapedWithBackticksAndNeedNoWarning() {
        let result = generate([makeEntity("Lesson", className: "class", attributes: [("class", .string), ("default", .boolean), ("self", .integer16)])])
        #expect(result.source.contains("private(set) lazy var `class` = StringAttribute(key: \"class\", parent: self)"))
        #expect(result.source.contains("private(set) lazy var `default` = BooleanAttribute(key: \"default\", parent: self)"))
        #expect(result.source.contains("private(set) lazy var `self` = Integer16Attribute(key: \"self\", parent: self)"))
        #expect(result.source.contains("extension `class`: Entity {"))
        #expect(result.messages.isEmpty)
    }

    @Test(arguments: ["Type", "Self", "Any", "Protocol", "My-Class", "9Lives"])
    func unusableClassNamesGetNoConformance(className: String) {
        let result = generate([makeEntity("Cat", className: className)])
        #expect(result.proxy("Cat")?.conformingClassName == nil)
        #expect(!result.source.contains("extension"))
        #expect(result.warnings(mentioning: "class name '\(className)' of entity 'Cat' is not a usable Swift class name").count == 1)
    }

    @Test func cdqiPrefixedAttributesAreLeftOutWithAWarning() {
        let result = generate([makeEntity("Item", attributes: [("cdqiKey", .string), ("cdqiName", .string), ("name", .string)])])
        #expect(!result.proxySource.contains("cdqiKey"))
        #expect(!result.proxySource.contains("lazy var cdqiName"))
        #expect(result.source.contains("lazy var name = StringAttribute"))
        #expect(result.warnings(mentioning: "starts with 'cdqi'").count == 2)
    }

    @Test func aggregateAndRuntimeMemberNamesAreOrdinaryProperties() {
        let names = ["count", "sum", "average", "min", "max", "key", "parent", "keyPath", "name"]
        let result = generate([makeEntity("Stats", attributes: names.map { ($0, .integer64) })])
        for name in names {
            #expect(result.source.contains("private(set) lazy var \(name) = Integer64Attribute(key: \"\(name)\", parent: self)"))
        }
        #expect(result.messages.isEmpty)
    }

    @Test func invalidIdentifiersAreSanitisedAndKeepTheirKey() {
        let result = generate([
            makeEntity("My Entity", className: "MyEntity", attributes: [("first-name", .string), ("2nd", .string), ("quo\"te", .string)])
        ])
        #expect(result.proxy("My Entity")?.proxyName == "My_EntityAttribute")
        #expect(result.source.contains("private(set) lazy var first_name = StringAttribute(key: \"first-name\", parent: self)"))
        #expect(result.source.contains("private(set) lazy var _2nd = StringAttribute(key: \"2nd\", parent: self)"))
        #expect(result.source.contains("private(set) lazy var quo_te = StringAttribute(key: \"quo\\\"te\", parent: self)"))
        #expect(result.source.contains("static var cdqiEntityName: String { \"My Entity\" }"))
        #expect(result.warnings(mentioning: "is not a valid Swift identifier").count == 4)
    }

    @Test func attributesWithoutAProxyTypeAreLeftOutWithTheirReason() {
        // `address` names no composite (the model has none).
        let result = generate([
            makeEntity(
                "Odd",
                attributes: [
                    ("scratch", .undefined), ("pointer", .objectID), ("address", .composite), ("kept", .binaryData),
                ])
        ])
        #expect(result.source.contains("private(set) lazy var kept = DataAttribute(key: \"kept\", parent: self)"))
        for name in ["scratch", "pointer", "address"] { #expect(!result.source.contains("var \(name)")) }
        #expect(result.warnings(mentioning: "'scratch' of entity 'Odd' has no type (Undefined").count == 1)
        #expect(result.warnings(mentioning: "'pointer' of entity 'Odd' has type ObjectID").count == 1)
        #expect(result.warnings(mentioning: "'address' of entity 'Odd' is a Composite attribute whose composite '' is not in the model").count == 1)
        #expect(result.messages.count == 3)
    }

    @Test func compositeAttributesUseAGeneratedCompositeProxy() throws {
        var shop = makeEntity("Shop", attributes: [("name", .string)])
        var address = AttributeDescription(name: "address", type: .composite, isOptional: true)
        address.compositeName = "Address"
        shop.attributes.append(address)
        var geo = AttributeDescription(name: "geo", type: .composite)
        geo.compositeName = "Point"
        var model = ManagedObjectModel(entities: [shop, makeEntity("Other")])
        model.composites = [
            CompositeDescription(
                name: "Address",
                attributes: [
                    AttributeDescription(name: "street", type: .string), AttributeDescription(name: "zip", type: .integer32), geo,
                    AttributeDescription(name: "cdqiOops", type: .string),
                ]),
            CompositeDescription(name: "Point", attributes: [AttributeDescription(name: "x", type: .double)]),
            CompositeDescription(name: "Unused", attributes: []),
        ]
        let generation = ProxyGenerator().generate(model, modelName: "Shops")
        let expected = """
            // Generated by cdqi from the Shops model. Do not edit: run cdqi again to update it.

            import CoreDataQueryInterface

            nonisolated final class ShopAttribute: EntityAttribute, Subqueryable {
                private(set) lazy var name = StringAttribute(key: "name", parent: self)
                private(set) lazy var address = AddressCompositeAttribute(key: "address", parent: self)
            }

            nonisolated extension Shop: Entity {
                typealias CDQIAttribute = ShopAttribute
            }

            nonisolated final class AddressCompositeAttribute: EntityAttribute {
                private(set) lazy var street = StringAttribute(key: "street", parent: self)
                private(set) lazy var zip = Integer32Attribute(key: "zip", parent: self)
                private(set) lazy var geo = PointCompositeAttribute(key: "geo", parent: self)
            }

            nonisolated final class PointCompositeAttribute: EntityAttribute {
                private(set) lazy var x = DoubleAttribute(key: "x", parent: self)
            }

            """
        // Selecting Shop brings the composites it uses (Address, and Point through Address), not Unused.
        let merged = generation.mergedFile(entities: ["Shop"])
        // The proxies, then the embedded model (always written), whose own tests are elsewhere.
        let proxies = try #require(expected.components(separatedBy: "import CoreDataQueryInterface\n").last)
        #expect(merged.contents.hasPrefix(expected.prefix(84)))  // the header comment
        #expect(merged.contents.contains(proxies + "\n/// The Shops model, built in code"))
        #expect(merged.entityNames == ["Shop"])
        #expect(
            generation.files().map(\.name) == [
                "ShopAttribute.swift", "OtherAttribute.swift", "AddressCompositeAttribute.swift",
                "PointCompositeAttribute.swift", "UnusedCompositeAttribute.swift", "ShopsModel.swift",
            ])
        #expect(generation.files(entities: ["Other"]).map(\.name) == ["OtherAttribute.swift", "ShopsModel.swift"])
        #expect(generation.proxy(forEntity: "Address") == nil)
        #expect(
            generation.diagnostics.map(\.message) == [
                "attribute 'cdqiOops' of composite 'Address' starts with 'cdqi', which CoreDataQueryInterface reserves for "
                    + "the proxies' own members; no proxy property is generated. Rename it in the model, or refer to it by "
                    + "its key path in a format string"
            ])
    }

    @Test func everyAttributeTypeMapsToItsProxy() {
        let expected: [(AttributeType, String)] = [
            (.string, "StringAttribute"), (.integer16, "Integer16Attribute"), (.integer32, "Integer32Attribute"),
            (.integer64, "Integer64Attribute"), (.decimal, "DecimalAttribute"), (.double, "DoubleAttribute"),
            (.float, "FloatAttribute"), (.boolean, "BooleanAttribute"), (.date, "DateAttribute"),
            (.binaryData, "DataAttribute"), (.uuid, "UUIDAttribute"), (.uri, "URIAttribute"),
            (.transformable, "TransformableAttribute"),
        ]
        let result = generate([makeEntity("All", attributes: expected.map { ("a\($0.1)", $0.0) })])
        for (_, proxy) in expected {
            #expect(result.source.contains("lazy var a\(proxy) = \(proxy)(key: \"a\(proxy)\", parent: self)"))
        }
    }

    @Test func propertiesNamedLikeProxyTypesAreLeftOut() {
        let result = generate([
            makeEntity("Person", attributes: [("StringAttribute", .string), ("PersonAttribute", .string), ("ok", .string)])
        ])
        #expect(!result.source.contains("var StringAttribute"))
        #expect(!result.source.contains("var PersonAttribute"))
        #expect(result.warnings(mentioning: "has the name of a type the proxies use").count == 2)
    }

    @Test func inheritanceSubclassesTheParentProxyAndOnlyLeavesAreFinal() {
        let result = generate([
            makeEntity("Animal", attributes: [("name", .string)]),
            makeEntity("Dog", parent: "Animal", attributes: [("name", .string), ("breed", .string)]),
            makeEntity("Puppy", parent: "Dog", attributes: [("age", .integer16)]),
        ])
        #expect(result.source.contains("\nnonisolated class AnimalAttribute: EntityAttribute, Subqueryable {"))
        #expect(!result.source.contains("final class AnimalAttribute"))
        #expect(result.source.contains("\nnonisolated class DogAttribute: AnimalAttribute {"))
        #expect(result.source.contains("final class PuppyAttribute: DogAttribute {"))
        // Dog's redeclared `name` would override Animal's: the proxy keeps the inherited one.
        #expect(result.proxy("Dog")?.properties.map(\.name) == ["breed"])
        #expect(result.warnings(mentioning: "'name' of entity 'Dog' has the name of a property inherited from entity 'Animal'").count == 1)
        #expect(result.messages.count == 1)
    }

    @Test func brokenInheritanceFallsBackToRootProxies() {
        let result = generate([
            makeEntity("Orphan", parent: "Missing"),
            makeEntity("A", parent: "B"),
            makeEntity("B", parent: "A"),
        ])
        for name in ["Orphan", "A", "B"] {
            #expect(result.proxy(name)?.superclassName == nil)
            #expect(result.proxy(name)?.isFinal == true)
        }
        #expect(result.warnings(mentioning: "names parent entity 'Missing', which is not in the model").count == 1)
        #expect(result.warnings(mentioning: "is part of an inheritance cycle").count == 2)
    }

    @Test func duplicatesAndMissingDestinationsAreReported() {
        var first = makeEntity("Box", attributes: [("size", .integer32), ("size", .string)], relationships: [("lid", "Nowhere")])
        first.fetchedProperties = [FetchedPropertyDescription(name: "recent", fetchRequest: FetchRequestTemplate(name: "f", entityName: "Box"))]
        let result = generate([first, makeEntity("Box", className: "OtherBox")])
        #expect(result.generation.proxies.count == 1)
        #expect(result.proxy("Box")?.properties == [ProxyProperty(name: "size", key: "size", kind: .runtime("Integer32Attribute"))])
        #expect(result.warnings(mentioning: "entity 'Box' is declared more than once").count == 1)
        #expect(result.warnings(mentioning: "declares the property name 'size' more than once").count == 1)
        #expect(result.warnings(mentioning: "leads to entity 'Nowhere', which is not in the model").count == 1)
        #expect(result.warnings(mentioning: "fetched property 'recent'").count == 1)
        #expect(result.messages.count == 4)
    }

    @Test func warningsCarryTheElementLocation() {
        var entity = makeEntity("Log", line: 3)
        var attribute = AttributeDescription(name: "blob", type: .undefined)
        attribute.location = SourceLocation(file: "Model.xcdatamodel/contents", line: 4)
        entity.attributes = [attribute]
        let result = generate([entity])
        #expect(
            result.generation.diagnostics.map(\.description) == [
                "Model.xcdatamodel/contents:4: warning: attribute 'blob' of entity 'Log' has no type (Undefined, as Xcode "
                    + "allows for transient attributes); no proxy property is generated because there is no value type to "
                    + "compare. Give it a type in the model to query it"
            ])
    }
}
