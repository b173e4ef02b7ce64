import Foundation

/// A property list tree that tests write as a binary property list (`bplist00`), so that tests can
/// make Xcode 3 model archives, and deliberately broken files, without any corpus file.
indirect enum TestPlist: Sendable {
    case string(String)
    case int(Int64)
    case bool(Bool)
    case uid(Int)
    case array([TestPlist])
    case dict([(String, TestPlist)])

    /// The binary property list holding this tree: every node is its own object (nothing shared),
    /// references are 2 bytes and offsets 4 bytes.
    func binary() -> [UInt8] {
        var objects: [[UInt8]] = []
        let top = Self.append(self, to: &objects)
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        for offset in offsets { bytes += Self.bigEndian(offset, size: 4) }
        bytes += [0, 0, 0, 0, 0, 0, 4, 2]  // 5 unused bytes, sort version, offset size, reference size
        bytes += Self.bigEndian(objects.count, size: 8) + Self.bigEndian(top, size: 8) + Self.bigEndian(table, size: 8)
        return bytes
    }

    private static func append(_ node: TestPlist, to objects: inout [[UInt8]]) -> Int {
        let encoded: [UInt8]
        switch node {
        case .string(let string):
            if string.utf8.allSatisfy({ $0 < 0x80 }) {
                encoded = header(0x50, count: string.utf8.count) + Array(string.utf8)
            } else {
                let units = Array(string.utf16)
                encoded = header(0x60, count: units.count) + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
            }
        case .int(let value):
            encoded = [0x13] + bigEndian(Int(value), size: 8)
        case .bool(let value):
            encoded = [value ? 0x09 : 0x08]
        case .uid(let reference):
            encoded = [0x81] + bigEndian(reference, size: 2)
        case .array(let elements):
            let references = elements.map { append($0, to: &objects) }
            encoded = header(0xA0, count: references.count) + references.flatMap { bigEndian($0, size: 2) }
        case .dict(let entries):
            let keys = entries.map { append(.string($0.0), to: &objects) }
            let values = entries.map { append($0.1, to: &objects) }
            encoded = header(0xD0, count: entries.count) + (keys + values).flatMap { bigEndian($0, size: 2) }
        }
        objects.append(encoded)
        return objects.count - 1
    }

    private static func header(_ marker: UInt8, count: Int) -> [UInt8] {
        count < 15 ? [marker | UInt8(count)] : [marker | 0x0F, 0x13] + bigEndian(count, size: 8)
    }

    static func bigEndian(_ value: Int, size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}

/// Writes NSKeyedArchiver archives of Xcode 3 models (`XDPMModel`) the way Xcode 3 lays them out:
/// a model, a package whose classes bucket lists the entities, properties in each entity's owned
/// attributes bucket, and every Core Data setting as an `XDUMLPropertyImp` inside a stereotype.
struct LegacyArchiveBuilder {
    struct Attribute: Sendable {
        var name: String
        var typeCode: Int64
        var isOptional = true
        var isTransient = false
        var defaultValue: String? = nil
    }

    struct Relationship: Sendable {
        var name: String
        var destination: String
        var inverse: String?
        var isToMany = false
        var isOptional = true
        var minCount: Int64? = nil
        var maxCount: Int64? = nil
        var deleteRule: Int64 = 1
        var isOrdered = false
    }

    struct Entity: Sendable {
        var name: String
        var className: String = "NSManagedObject"
        var parent: String? = nil
        var isAbstract = false
        var userInfo: [(String, TestPlist)] = []
        var attributes: [Attribute] = []
        var relationships: [Relationship] = []
    }

    private(set) var objects: [TestPlist] = [.string("$null")]
    private var classes: [String: Int] = [:]

    /// The archive of a model holding `entities`; `rootClass` replaces `XDPMModel` to make archives
    /// that are not models, and `listing` > 1 lists every entity that many times in the classes bucket.
    static func archive(_ entities: [Entity], rootClass: String = "XDPMModel", listing: Int = 1) -> [UInt8] {
        var builder = LegacyArchiveBuilder()
        return builder.build(entities, rootClass: rootClass, listing: listing).binary()
    }

    mutating func build(_ entities: [Entity], rootClass: String, listing: Int = 1) -> TestPlist {
        let model = reserve()
        let package = reserve()
        // Entities and properties are created first, so that relationships can refer to them.
        var entityIndex: [String: Int] = [:]
        for entity in entities { entityIndex[entity.name] = reserve() }
        var propertyIndex: [String: Int] = [:]
        for entity in entities {
            for attribute in entity.attributes { propertyIndex["\(entity.name).\(attribute.name)"] = reserve() }
            for relationship in entity.relationships {
                propertyIndex["\(entity.name).\(relationship.name)"] = reserve()
            }
        }
        for entity in entities {
            guard let index = entityIndex[entity.name] else { continue }
            var owned: [(String, TestPlist)] = []
            for attribute in entity.attributes {
                guard let slot = propertyIndex["\(entity.name).\(attribute.name)"] else { continue }
                var settings: [(String, TestPlist)] = [("XD_PAttK_attributeType", .int(attribute.typeCode))]
                if let value = attribute.defaultValue { settings.append(("XD_PAttK_defaultValueAsString", .string(value))) }
                let stereotypes = stereotypeBucket([
                    (
                        "XD_PPropStereotype",
                        [
                            ("XD_PPSK_isOptional", .bool(attribute.isOptional)),
                            ("XD_PPSK_isTransient", .bool(attribute.isTransient)),
                        ]
                    ),
                    ("XD_PAtt_Stereotype", settings),
                ])
                set(
                    slot,
                    object(
                        "XDPMAttribute",
                        [
                            ("_name", .uid(add(.string(attribute.name)))), ("_owner", .uid(index)),
                            ("XDBucketForStereotypesstorage", .uid(stereotypes)),
                        ]))
                owned.append((attribute.name, .uid(slot)))
            }
            for relationship in entity.relationships {
                guard let slot = propertyIndex["\(entity.name).\(relationship.name)"] else { continue }
                var settings: [(String, TestPlist)] = [
                    ("XD_PRK_destination", .uid(entityIndex[relationship.destination] ?? 0)),
                    ("XD_PRK_deleteRule", .int(relationship.deleteRule)),
                ]
                if let inverse = relationship.inverse {
                    settings.append(("XD_PRK_inverseRelationship", .uid(propertyIndex["\(relationship.destination).\(inverse)"] ?? 0)))
                }
                if relationship.isToMany { settings.append(("XD_PRK_isToMany", .bool(true))) }
                if relationship.isOrdered { settings.append(("XD_PRK_ordered", .bool(true))) }
                if let minimum = relationship.minCount { settings.append(("XD_PRK_minCount", .int(minimum))) }
                if let maximum = relationship.maxCount { settings.append(("XD_PRK_maxCount", .int(maximum))) }
                let stereotypes = stereotypeBucket([
                    (
                        "XD_PPropStereotype",
                        [
                            ("XD_PPSK_isOptional", .bool(relationship.isOptional)), ("XD_PPSK_isTransient", .bool(false)),
                        ]
                    ),
                    ("XD_PR_Stereotype", settings),
                ])
                set(
                    slot,
                    object(
                        "XDPMRelationship",
                        [
                            ("_name", .uid(add(.string(relationship.name)))), ("_owner", .uid(index)),
                            ("XDBucketForStereotypesstorage", .uid(stereotypes)),
                        ]))
                owned.append((relationship.name, .uid(slot)))
            }
            var generalizations: [TestPlist] = []
            if let parent = entity.parent {
                let generalization = object(
                    "XDUMLGeneralizationImp",
                    [
                        ("_general", .uid(entityIndex[parent] ?? 0)), ("_specific", .uid(index)),
                    ])
                generalizations.append(.uid(generalization))
            }
            let stereotypes = stereotypeBucket([
                (
                    "XD_PStereotype",
                    [
                        ("XD_PSK_entityClassName", .string(entity.className)),
                        ("XD_PSK_isAbstract", .bool(entity.isAbstract)),
                        ("XD_PSK_userInfo", .uid(dictionary(entity.userInfo))),
                        ("XD_PSK_fetchRequestsArray", .uid(array([]))),
                    ]
                )
            ])
            set(
                index,
                object(
                    "XDPMEntity",
                    [
                        ("_name", .uid(add(.string(entity.name)))), ("_isAbstract", .bool(entity.isAbstract)),
                        ("_owner", .uid(package)),
                        ("XDBucketForOwnedAttributesstorage", .uid(dictionary(owned))),
                        ("XDBucketForGeneralizationsstorage", .uid(array(generalizations))),
                        ("XDBucketForStereotypesstorage", .uid(stereotypes)),
                    ]))
        }
        let listed = entities.compactMap { entity in entityIndex[entity.name].map { (entity.name, TestPlist.uid($0)) } }
        let classesBucket = dictionary(Array(repeating: listed, count: listing).flatMap { $0 })
        set(
            package,
            object(
                "XDModelPackage",
                [
                    ("_name", .uid(add(.string("Model")))), ("_xd_owningModel", .uid(model)),
                    ("XDBucketForClassesstorage", .uid(classesBucket)),
                    ("XDBucketForPackagesstorage", .uid(dictionary([]))),
                ]))
        set(
            model,
            object(
                rootClass,
                [
                    ("_xd_modelName", .uid(add(.string("Model.xcdatamodel")))), ("_xd_rootPackage", .uid(package)),
                    ("_configurationsByName", .uid(dictionary([]))), ("_modelVersionIdentifier", .uid(0)),
                ]))
        return .dict([
            ("$archiver", .string("NSKeyedArchiver")), ("$version", .int(100000)),
            ("$top", .dict([("root", .uid(model))])), ("$objects", .array(objects)),
        ])
    }

    mutating func add(_ value: TestPlist) -> Int {
        objects.append(value)
        return objects.count - 1
    }

    private mutating func reserve() -> Int { add(.string("$null")) }

    private mutating func set(_ index: Int, _ objectIndex: Int) {
        objects[index] = objects[objectIndex]
    }

    /// An archived object of class `name` (its `$class` entry is added) and returns its index.
    mutating func object(_ name: String, _ fields: [(String, TestPlist)]) -> Int {
        let classIndex: Int
        if let known = classes[name] {
            classIndex = known
        } else {
            classIndex = add(.dict([("$classname", .string(name)), ("$classes", .array([.string(name), .string("NSObject")]))]))
            classes[name] = classIndex
        }
        return add(.dict(fields + [("$class", .uid(classIndex))]))
    }

    /// An archived `NSMutableDictionary` with string keys (stored as objects, as NSKeyedArchiver does).
    mutating func dictionary(_ entries: [(String, TestPlist)]) -> Int {
        let keys = entries.map { TestPlist.uid(add(.string($0.0))) }
        return object("NSMutableDictionary", [("NS.keys", .array(keys)), ("NS.objects", .array(entries.map(\.1)))])
    }

    mutating func array(_ elements: [TestPlist]) -> Int {
        object("NSMutableArray", [("NS.objects", .array(elements))])
    }

    /// Stereotypes (name → settings), each setting an `XDUMLPropertyImp` whose `_default` is the value.
    private mutating func stereotypeBucket(_ stereotypes: [(String, [(String, TestPlist)])]) -> Int {
        var entries: [(String, TestPlist)] = []
        for (name, settings) in stereotypes {
            var items: [(String, TestPlist)] = []
            for (key, value) in settings {
                let stored: TestPlist
                if case .string = value { stored = .uid(add(value)) } else { stored = value }
                items.append((key, .uid(object("XDUMLPropertyImp", [("_name", .uid(add(.string(key)))), ("_default", stored)]))))
            }
            let stereotype = object(
                "XDUMLStereotypeImp",
                [
                    ("_name", .uid(add(.string(name)))), ("XDBucketForOwnedAttributesstorage", .uid(dictionary(items))),
                ])
            entries.append((name, .uid(stereotype)))
        }
        return dictionary(entries)
    }

    /// A new folder `<name>.xcdatamodel` under the temporary directory holding `elements`, and a
    /// function that removes it.
    static func temporaryModel(_ bytes: [UInt8], name: String = "Model") throws -> (folder: URL, elements: URL, remove: () -> Void) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-legacy-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("\(name).xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let elements = folder.appendingPathComponent("elements")
        try Data(bytes).write(to: elements)
        return (folder, elements, { try? FileManager.default.removeItem(at: root) })
    }
}
