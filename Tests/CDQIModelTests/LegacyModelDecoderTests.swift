import CDQITestSupport
import Foundation
import Testing

@testable import CDQIModel

/// Xcode 3 model archives written by the test (no corpus needed): each setting lands in the model,
/// and archives that are not models, or models Core Data would refuse, give clear errors.
@Suite("Legacy model decoder")
struct LegacyModelDecoderTests {
    typealias Builder = LegacyArchiveBuilder

    /// A department/employee model covering types, optionality, counts, delete rules and inheritance.
    static let company: [Builder.Entity] = [
        Builder.Entity(
            name: "Person", className: "Person", isAbstract: true,
            attributes: [Builder.Attribute(name: "name", typeCode: 700, isOptional: false, defaultValue: "Anon")]),
        Builder.Entity(
            name: "Employee", className: "Employee", parent: "Person",
            userInfo: [("key", .string("value")), ("nested", .dict([("a", .string("b"))]))],
            attributes: [
                Builder.Attribute(name: "salary", typeCode: 400),
                Builder.Attribute(name: "started", typeCode: 900),
                Builder.Attribute(name: "scratch", typeCode: 1000, isTransient: true),
            ],
            relationships: [
                Builder.Relationship(
                    name: "department", destination: "Department", inverse: "employees", isOptional: false,
                    minCount: 1, maxCount: 1, deleteRule: 1)
            ]),
        Builder.Entity(
            name: "Department",
            attributes: [Builder.Attribute(name: "budget", typeCode: 300)],
            relationships: [
                Builder.Relationship(
                    name: "employees", destination: "Employee", inverse: "department", isToMany: true, minCount: 0,
                    maxCount: 0, deleteRule: 3, isOrdered: true)
            ]),
    ]

    @Test("every setting of a hand-built archive lands in the model")
    func decodesSettings() throws {
        let (folder, elements, remove) = try Builder.temporaryModel(Builder.archive(Self.company), name: "Company")
        defer { remove() }
        let loaded = try ModelLoader().load(url: folder)
        let model = loaded.model
        #expect(loaded.modelName == "Company")
        #expect(loaded.contentsURL.path == elements.path)
        // Sorted by name, as Xcode writes XML models.
        #expect(model.entities.map(\.name) == ["Department", "Employee", "Person"])

        let person = try #require(model.entity(named: "Person"))
        #expect(person.isAbstract)
        #expect(person.representedClassName == "Person")
        let name = try #require(person.attribute(named: "name"))
        #expect(name.type == .string && !name.isOptional && name.defaultValueString == "Anon")

        let employee = try #require(model.entity(named: "Employee"))
        #expect(employee.parentEntityName == "Person")
        #expect(!employee.isAbstract)
        #expect(employee.attributes.map(\.name) == ["salary", "scratch", "started"])
        #expect(employee.attribute(named: "salary")?.type == .decimal)
        #expect(employee.attribute(named: "salary")?.isOptional == true)
        #expect(employee.attribute(named: "started")?.type == .date)
        #expect(employee.attribute(named: "scratch")?.isTransient == true)
        // The nested dictionary cannot be expressed in a model file and is dropped, with a warning.
        #expect(employee.userInfo == ["key": "value"])
        #expect(loaded.warnings.contains { $0.severity == .warning && $0.message.contains("1 userInfo value(s)") })

        let department = try #require(employee.relationship(named: "department"))
        #expect(department.destinationEntityName == "Department")
        #expect(department.inverseName == "employees" && department.inverseEntityName == "Department")
        #expect(!department.isToMany && !department.isOptional)
        #expect(department.minCount == 1 && department.maxCount == 1)
        #expect(department.deleteRule == .nullify)

        let employees = try #require(model.entity(named: "Department")?.relationship(named: "employees"))
        #expect(employees.isToMany && employees.isOrdered && employees.isOptional)
        #expect(employees.minCount == nil && employees.maxCount == nil)
        #expect(employees.deleteRule == .deny)
        #expect(model.entity(named: "Department")?.representedClassName == "NSManagedObject")
        #expect(model.entity(named: "Department")?.className == nil)

        // Every element is located at the elements file, line 0.
        let location = SourceLocation(file: elements.path, line: 0)
        #expect(model.entities.allSatisfy { $0.location == location })
        #expect(employees.location == location)
        #expect(name.location == location)
    }

    @Test("version hashes of a hand-built archive follow the documented algorithm")
    func hashOfDecodedModel() throws {
        // Entity `Solo { title: String, required }`, hashed by hand per the reference §1.
        let archive = Builder.archive([
            Builder.Entity(name: "Solo", attributes: [Builder.Attribute(name: "title", typeCode: 700, isOptional: false)])
        ])
        let (folder, _, remove) = try Builder.temporaryModel(archive)
        defer { remove() }
        let model = try ModelLoader().load(url: folder).model
        let base = SHA2.sha256(Array("title".utf8) + [0, 0])
        let attribute = SHA2.sha256(base + [0xBC, 0x02, 0, 0])
        let entity = SHA2.sha256(Array("Solo".utf8) + [0] + attribute)
        #expect(ModelVersionHashes(model: model).entityHashes["Solo"] == Data(entity))
    }

    @Test("an archive whose root is not an Xcode 3 model")
    func notAModel() throws {
        let (folder, elements, remove) = try Builder.temporaryModel(Builder.archive([], rootClass: "NSObject"))
        defer { remove() }
        #expect(
            throws: ModelError.legacyBinaryFormat(
                path: elements.path, reason: "not an Xcode 3 model archive: the root object is a NSObject, not an XDPMModel")
        ) {
            try ModelLoader().load(url: folder)
        }
    }

    @Test("a plain property list that is not a keyed archive")
    func notAnArchive() throws {
        let bytes = TestPlist.dict([("hello", .string("world"))]).binary()
        let (folder, elements, remove) = try Builder.temporaryModel(bytes)
        defer { remove() }
        #expect(
            throws: ModelError.legacyBinaryFormat(
                path: elements.path, reason: "not an Xcode 3 model archive: not an NSKeyedArchiver archive: no '$archiver' key")
        ) {
            try ModelLoader().load(url: folder)
        }
    }

    @Test("a reference past the end of the archive's objects")
    func danglingArchiveReference() throws {
        let bytes = TestPlist.dict([
            ("$archiver", .string("NSKeyedArchiver")), ("$top", .dict([("root", .uid(99))])),
            ("$objects", .array([.string("$null")])),
        ]).binary()
        let (folder, elements, remove) = try Builder.temporaryModel(bytes)
        defer { remove() }
        #expect(
            throws: ModelError.legacyBinaryFormat(
                path: elements.path, reason: "keyed archive refers to object 99, but holds only 1 objects")
        ) {
            try ModelLoader().load(url: folder)
        }
    }

    @Test("a model whose package is the model itself: an error, not a loop")
    func selfReferentialArchive() throws {
        var builder = Builder()
        // Object 1 is an XDPMModel whose root package refers back to object 1.
        let model = builder.object("XDPMModel", [("_xd_rootPackage", .uid(2))])
        let bytes = TestPlist.dict([
            ("$archiver", .string("NSKeyedArchiver")), ("$top", .dict([("root", .uid(model))])),
            ("$objects", .array(builder.objects)),
        ]).binary()
        #expect(model == 2)
        let (folder, elements, remove) = try Builder.temporaryModel(bytes)
        defer { remove() }
        #expect(
            throws: ModelError.legacyBinaryFormat(
                path: elements.path, reason: "malformed Xcode 3 model: the model has no root package (XDModelPackage)")
        ) {
            try ModelLoader().load(url: folder)
        }
    }

    @Test("an entity that is its own parent is refused by validation, without looping")
    func inheritanceCycle() throws {
        let archive = Builder.archive([
            Builder.Entity(name: "Loop", parent: "Loop", attributes: [Builder.Attribute(name: "a", typeCode: 200)])
        ])
        let (folder, elements, remove) = try Builder.temporaryModel(archive)
        defer { remove() }
        do {
            _ = try ModelLoader().load(url: folder)
            Issue.record("a model whose entity inherits from itself loaded")
        } catch {
            guard case .invalid(let problems) = error else {
                Issue.record("expected .invalid, got \(error)")
                return
            }
            #expect(problems.contains { $0.message.contains("'Loop' inherits from itself") })
            #expect(problems.allSatisfy { $0.location == SourceLocation(file: elements.path, line: 0) })
        }
    }

    @Test("unknown attribute type and delete rule codes are reported together")
    func unknownCodes() throws {
        let archive = Builder.archive([
            Builder.Entity(
                name: "Odd", attributes: [Builder.Attribute(name: "weird", typeCode: 4242)],
                relationships: [Builder.Relationship(name: "me", destination: "Odd", inverse: "me", deleteRule: 9)])
        ])
        let (folder, elements, remove) = try Builder.temporaryModel(archive)
        defer { remove() }
        do {
            _ = try ModelLoader().load(url: folder)
            Issue.record("a model with unknown codes loaded")
        } catch {
            let text = error.description
            #expect(text.contains("\(elements.path): error: attribute 'Odd.weird' has unknown attribute type code 4242"))
            #expect(text.contains("relationship 'Odd.me' has unknown delete rule code 9 (expected 0 to 3)"))
        }
    }

    @Test("a binary plist in a 'contents' file is decoded as a legacy model")
    func binaryContents() throws {
        let archive = Builder.archive([
            Builder.Entity(name: "Only", attributes: [Builder.Attribute(name: "flag", typeCode: 800)])
        ])
        let (folder, _, remove) = try Builder.temporaryModel(archive)
        defer { remove() }
        let contents = folder.appendingPathComponent("contents")
        try Data(archive).write(to: contents)
        let loaded = try ModelLoader().load(url: contents)
        #expect(loaded.model.entity(named: "Only")?.attribute(named: "flag")?.type == .boolean)
        #expect(loaded.model.entities.first?.location == SourceLocation(file: contents.path, line: 0))
    }

    @Test("an archive listing one entity thousands of times is refused before the work grows quadratic")
    func repeatedListing() throws {
        let attributes = (0..<200).map { Builder.Attribute(name: "a\($0)", typeCode: 200) }
        let entity = Builder.Entity(name: "Many", attributes: attributes)
        // Listed twice: decoded twice, then refused by validation as a duplicate.
        let (twiceFolder, _, removeTwice) = try Builder.temporaryModel(Builder.archive([entity], listing: 2))
        defer { removeTwice() }
        #expect(throws: ModelError.self) { try ModelLoader().load(url: twiceFolder) }
        do {
            _ = try ModelLoader().load(url: twiceFolder)
        } catch {
            #expect(error.description.contains("entity 'Many' is declared more than once"))
        }
        // Listed 2000 times: 2000 × 200 properties is far more work than the archive's size allows.
        let (folder, _, remove) = try Builder.temporaryModel(Builder.archive([entity], listing: 2000))
        defer { remove() }
        do {
            _ = try ModelLoader().load(url: folder)
            Issue.record("an archive listing one entity 2000 times loaded")
        } catch {
            guard case .legacyBinaryFormat(_, let reason) = error else {
                Issue.record("expected legacyBinaryFormat, got \(error)")
                return
            }
            #expect(reason.hasPrefix("malformed Xcode 3 model: the archive lists the same objects over and over"))
        }
    }

    @Test("damaged archives fail with a typed error and never crash")
    func damagedArchives() throws {
        let archive = Builder.archive(Self.company)
        #expect((try? LegacyModelDecoder.decode(archive, file: "x")) != nil)
        var generator = SeededGenerator(seed: 0x5EED)
        var failures = 0
        for round in 0..<300 {
            var bytes = archive
            if round % 3 == 0 {
                bytes = Array(bytes.prefix(Int(generator.next() % UInt64(bytes.count))))
            } else {
                for _ in 0..<(1 + round % 4) {
                    bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
                }
            }
            do {
                _ = try LegacyModelDecoder.decode(bytes, file: "x")
            } catch {
                failures += 1
                #expect(!error.description.isEmpty)
            }
        }
        // Every truncation fails; most byte flips do too (some land in unused bytes).
        #expect(failures >= 100)
    }
}
