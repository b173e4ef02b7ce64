import CDQIModel
import Foundation
import Testing

/// The project's own fixture models load into the values their README describes.
@Suite("Fixture models")
struct FixtureModelTests {
    let loader = ModelLoader()

    @Test("Company: entities, attributes of every type, relationships")
    func company() throws {
        let loaded = try loader.load(url: TestPaths.fixture("Company.xcdatamodeld"))
        #expect(loaded.modelName == "Company")
        #expect(loaded.warnings.isEmpty)
        let model = loaded.model
        #expect(model.entities.map(\.name) == ["Department", "Employee", "TestEntity"])

        let employee = try #require(model.entity(named: "Employee"))
        #expect(employee.className == "Employee")
        #expect(employee.codeGenerationType == .class)
        let salary = try #require(employee.attribute(named: "salary"))
        #expect(salary.type == .integer32)
        #expect(!salary.isOptional)
        #expect(salary.defaultValueString == "0")
        #expect(salary.usesScalarValueType == true)
        #expect(employee.attribute(named: "nickName")?.isOptional == true)
        #expect(employee.attribute(named: "firstName")?.isOptional == false)
        #expect(employee.fetchIndexes.map(\.name) == ["byLastName"])
        #expect(employee.fetchIndexes.first?.elements == [FetchIndex.Element(property: "lastName")])

        let department = try #require(employee.relationship(named: "department"))
        #expect(department.destinationEntityName == "Department")
        #expect(department.inverseName == "employees")
        #expect(!department.isToMany)
        #expect(department.deleteRule == .nullify)
        let employees = try #require(model.entity(named: "Department")?.relationship(named: "employees"))
        #expect(employees.isToMany)
        #expect(employees.deleteRule == .cascade)

        let test = try #require(model.entity(named: "TestEntity"))
        let types = Dictionary(uniqueKeysWithValues: test.attributes.map { ($0.name, $0.type) })
        #expect(
            types == [
                "binary": .binaryData, "boolean": .boolean, "date": .date, "decimal": .decimal, "double": .double,
                "float": .float, "integer16": .integer16, "integer32": .integer32, "integer64": .integer64,
                "string": .string, "transformable": .transformable, "uri": .uri, "uuid": .uuid, "scratch": .undefined,
            ])
        let transformable = try #require(test.attribute(named: "transformable"))
        #expect(transformable.valueTransformerName == "NSSecureUnarchiveFromDataTransformer")
        #expect(transformable.customClassName == "[String]")
        #expect(test.attribute(named: "scratch")?.isTransient == true)
        #expect(test.attributes.allSatisfy { $0.isOptional })
    }

    @Test("Developers: many-to-many relationships and uniqueness constraints")
    func developers() throws {
        let model = try loader.load(url: TestPaths.fixture("Developers.xcdatamodeld")).model
        let developer = try #require(model.entity(named: "Developer"))
        #expect(developer.uniquenessConstraints.map(\.properties) == [["firstName", "lastName"]])
        let languages = try #require(developer.relationship(named: "languages"))
        #expect(languages.isToMany && languages.inverseName == "developers")
        #expect(model.entity(named: "Language")?.relationship(named: "developers")?.isToMany == true)
        let lead = try #require(model.entity(named: "Project")?.relationship(named: "lead"))
        #expect(!lead.isToMany && lead.inverseName == "ledProjects")
        #expect(model.entity(named: "Language")?.uniquenessConstraints.map(\.properties) == [["name"]])
    }

    @Test("Library: the current version, inheritance, ordered and many-to-many, indexes, templates")
    func libraryCurrentVersion() throws {
        let loaded = try loader.load(url: TestPaths.fixture("Library.xcdatamodeld"))
        #expect(loaded.modelName == "Library")
        #expect(loaded.warnings.isEmpty)
        let model = loaded.model
        #expect(model.versionName == "Library 2")
        #expect(model.entities.map(\.name) == ["Album", "Book", "Item", "Media", "Shelf", "Tag"])

        let album = try #require(model.entity(named: "Album"))
        #expect(model.ancestors(of: album).map(\.name) == ["Media", "Item"])
        #expect(model.allAttributes(of: album).map(\.name) == ["createdAt", "title", "duration", "trackCount"])
        #expect(model.allRelationships(of: album).map(\.name) == ["shelf", "tags"])
        #expect(album.attribute(named: "trackCount")?.minValueString == "1")
        #expect(album.attribute(named: "trackCount")?.maxValueString == "999")

        let item = try #require(model.entity(named: "Item"))
        #expect(item.isAbstract)
        #expect(model.subentities(of: item).map(\.name) == ["Book", "Media"])
        #expect(item.userInfo["displayName"] == "Library item")
        #expect(item.attribute(named: "createdAt")?.renamingIdentifier == "addedAt")
        let tags = try #require(item.relationship(named: "tags"))
        #expect(tags.minCount == 1 && tags.maxCount == 5 && tags.isToMany)

        let book = try #require(model.entity(named: "Book"))
        #expect(book.fetchIndexes.first?.elements.compactMap(\.property) == ["isbn", "title"])
        #expect(book.uniquenessConstraints.map(\.properties) == [["isbn"]])
        #expect(book.attribute(named: "isbn")?.regularExpression == "^[0-9]{9}[0-9X]$|^97[89][0-9]{10}$")
        #expect(book.attribute(named: "isbn")?.userInfo["format"] == "ISBN-10 or ISBN-13, digits only")

        let shelf = try #require(model.entity(named: "Shelf"))
        #expect(shelf.versionHashModifier == "2")
        let items = try #require(shelf.relationship(named: "items"))
        #expect(items.isOrdered && items.isToMany && items.deleteRule == .deny)
        let recent = try #require(shelf.fetchedProperties.first)
        #expect(recent.name == "recentItems")
        #expect(recent.fetchRequest.entityName == "Item")
        #expect(
            recent.fetchRequest.predicateString
                == "shelf == $FETCH_SOURCE AND createdAt > $FETCH_SOURCE.lastReviewedAt")
        #expect(model.entity(named: "Tag")?.relationship(named: "items")?.deleteRule == .noAction)

        #expect(model.fetchRequestTemplates.count == 1)
        let template = try #require(model.fetchRequestTemplates.first)
        #expect(template.name == "BooksByTitle" && template.entityName == "Book")
        #expect(template.predicateString == "title BEGINSWITH $PREFIX")
        #expect(template.fetchLimit == 10)
        #expect(model.configurations.map(\.name) == ["Main"])
        #expect(model.configurations.first?.memberEntityNames == ["Album", "Book", "Item", "Media", "Shelf", "Tag"])
    }

    @Test("Library: other versions by name, with or without the extension")
    func libraryOtherVersions() throws {
        let bundle = TestPaths.fixture("Library.xcdatamodeld")
        let versions = try loader.versions(ofBundle: bundle)
        #expect(versions.names == ["Library", "Library 2"])
        #expect(versions.current == "Library 2")
        for name in ["Library", "Library.xcdatamodel"] {
            let old = try loader.load(url: bundle, version: name).model
            #expect(old.versionName == "Library")
            #expect(old.entities.map(\.name) == ["Book", "Item", "Shelf"])
            #expect(old.entity(named: "Shelf")?.relationship(named: "items")?.isOrdered == false)
        }
        #expect(
            throws: ModelError.versionNotFound(
                bundle: bundle.path, name: "Library 3", available: ["Library", "Library 2"], namedBy: nil)
        ) {
            try loader.load(url: bundle, version: "Library 3")
        }
    }

    @Test("a version folder and a contents file load the same model as the bundle")
    func versionFolderAndContentsFile() throws {
        let folder = TestPaths.fixture("Library.xcdatamodeld/Library 2.xcdatamodel")
        let viaBundle = try loader.load(url: TestPaths.fixture("Library.xcdatamodeld")).model
        var viaFolder = try loader.load(url: folder).model
        var viaFile = try loader.load(url: folder.appendingPathComponent("contents")).model
        #expect(viaFolder.versionName == nil)
        viaFolder.versionName = "Library 2"
        viaFile.versionName = "Library 2"
        #expect(viaFolder == viaBundle)
        #expect(viaFile == viaBundle)
        #expect(try loader.load(url: folder.appendingPathComponent("contents")).modelName == "Library")
    }

    @Test("module-qualified class names reduce to the class name")
    func classNames() {
        let cases: [(String?, String?)] = [
            ("Employee", "Employee"), (".Employee", "Employee"), ("App.Employee", "Employee"),
            ("Some.Deep.Module.Type", "Type"), ("", nil), (nil, nil), ("NSManagedObject", nil), (" ", nil),
        ]
        for (written, expected) in cases {
            #expect(EntityDescription(name: "E", representedClassName: written).className == expected)
        }
    }
}

/// Models survive an encode/decode round trip (what an embedded model in generated code relies on).
@Suite("Model encoding")
struct ModelEncodingTests {
    @Test("every corpus model and fixture round-trips through JSON, and the encoding has no paths")
    func roundTrip() throws {
        var urls = ["Company.xcdatamodeld", "Developers.xcdatamodeld", "Library.xcdatamodeld"].map(TestPaths.fixture)
        if let corpus = TestPaths.corpusModels {
            urls += try FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted()
                .filter { $0.hasSuffix(".xcdatamodeld") || $0.hasSuffix(".xcdatamodel") }
                .map { corpus.appendingPathComponent($0) }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var checked = 0
        for url in urls {
            guard let model = try? ModelLoader().load(url: url).model else { continue }
            let data = try encoder.encode(model)
            let decoded = try JSONDecoder().decode(ManagedObjectModel.self, from: data)
            #expect(decoded == model, "\(url.lastPathComponent)")
            #expect(decoded.entity(named: model.entities.first?.name ?? "") == model.entities.first)
            #expect(!String(decoding: data, as: UTF8.self).contains(url.path), "\(url.lastPathComponent) encodes its path")
            checked += 1
        }
        #expect(checked >= 3)
    }
}
