/// Builds an `NSKeyedArchiver` archive, the inverse of ``KeyedArchive``: the `$objects` table with
/// `$null` at index 0, objects as dictionaries of their encoded fields with a `$class` reference to a
/// class description (`$classname` and the `$classes` chain up to `NSObject`), `$top` naming the root,
/// `$archiver` and `$version` (100000), as Foundation writes them.
///
/// Object graphs with cycles are written by reserving an object's number first (``reserve()``) and
/// encoding its fields later (``fill(_:classes:fields:)``), so objects can refer to each other in any
/// order. Strings are stored bare in `$objects` and shared by value; class descriptions once per class.
struct KeyedArchiveEncoder {
    /// Why an archive could not be finished.
    enum Failure: Error, Sendable, Hashable {
        /// An object number was reserved but its object never encoded.
        case unfilledObject(Int)
        /// An object was encoded into a number that was not reserved, or twice.
        case misplacedObject(Int)
    }

    /// The reference `UID(0)`: `nil`.
    static let null = PropertyListValue.uid(0)

    private var objects: [PropertyListValue?] = [.string("$null")]
    private var classReferences: [[String]: PropertyListValue] = [:]
    private var stringReferences: [String: PropertyListValue] = [:]

    /// The number of objects in the table so far, `$null` and class descriptions included.
    var objectCount: Int { objects.count }

    // MARK: Objects

    /// Reserves the next object number, for an object encoded later with ``fill(_:classes:fields:)``.
    mutating func reserve() -> PropertyListValue {
        objects.append(nil)
        return .uid(UInt64(objects.count - 1))
    }

    /// Encodes an object into a reserved number. `classes` is the class chain, the object's own class
    /// first (`["NSAttributeDescription", "NSPropertyDescription", "NSObject"]`).
    mutating func fill(_ reference: PropertyListValue, classes: [String], fields: [String: PropertyListValue]) throws(Failure) {
        guard case .uid(let number) = reference, number > 0, number < UInt64(objects.count), objects[Int(number)] == nil else {
            if case .uid(let number) = reference { throw .misplacedObject(Int(clamping: number)) }
            throw .misplacedObject(-1)
        }
        var encoded = fields
        encoded["$class"] = classDescription(classes)
        objects[Int(number)] = .dictionary(encoded)
    }

    /// Encodes a new object and returns its reference.
    mutating func encode(classes: [String], fields: [String: PropertyListValue]) -> PropertyListValue {
        var encoded = fields
        // The class description goes after the object, as Foundation places it.
        objects.append(nil)
        let number = objects.count - 1
        encoded["$class"] = classDescription(classes)
        objects[number] = .dictionary(encoded)
        return .uid(UInt64(number))
    }

    /// A string, stored bare and shared; `nil` gives ``null``.
    mutating func string(_ text: String?) -> PropertyListValue {
        guard let text else { return Self.null }
        if let known = stringReferences[text] { return known }
        objects.append(.string(text))
        let reference = PropertyListValue.uid(UInt64(objects.count - 1))
        stringReferences[text] = reference
        return reference
    }

    /// A plain value (data, for example) stored bare in `$objects`, not shared.
    mutating func value(_ value: PropertyListValue) -> PropertyListValue {
        objects.append(value)
        return .uid(UInt64(objects.count - 1))
    }

    // MARK: Foundation collections

    /// An `NSArray` (or `NSMutableArray`) of references.
    mutating func array(_ elements: [PropertyListValue], mutable: Bool = false) -> PropertyListValue {
        encode(
            classes: mutable ? ["NSMutableArray", "NSArray", "NSObject"] : ["NSArray", "NSObject"],
            fields: ["NS.objects": .array(elements)])
    }

    /// An `NSSet` (or `NSMutableSet`) of references.
    mutating func set(_ elements: [PropertyListValue], mutable: Bool = false) -> PropertyListValue {
        encode(
            classes: mutable ? ["NSMutableSet", "NSSet", "NSObject"] : ["NSSet", "NSObject"],
            fields: ["NS.objects": .array(elements)])
    }

    /// An `NSDictionary` (or `NSMutableDictionary`): parallel arrays of key and value references.
    mutating func dictionary(
        keys: [PropertyListValue], values: [PropertyListValue], mutable: Bool = false
    ) -> PropertyListValue {
        encode(
            classes: mutable ? ["NSMutableDictionary", "NSDictionary", "NSObject"] : ["NSDictionary", "NSObject"],
            fields: ["NS.keys": .array(keys), "NS.objects": .array(values)])
    }

    // MARK: Archive

    /// The archive as a property list, with `root` as its `$top` root object.
    func archive(root: PropertyListValue) throws(Failure) -> PropertyListValue {
        var table: [PropertyListValue] = []
        table.reserveCapacity(objects.count)
        for (number, object) in objects.enumerated() {
            guard let object else { throw .unfilledObject(number) }
            table.append(object)
        }
        return .dictionary([
            "$archiver": .string("NSKeyedArchiver"),
            "$version": .integer(100_000),
            "$top": .dictionary(["root": root]),
            "$objects": .array(table),
        ])
    }

    private mutating func classDescription(_ classes: [String]) -> PropertyListValue {
        if let known = classReferences[classes] { return known }
        objects.append(
            .dictionary([
                "$classname": .string(classes.first ?? "NSObject"),
                "$classes": .array(classes.map { .string($0) }),
            ]))
        let reference = PropertyListValue.uid(UInt64(objects.count - 1))
        classReferences[classes] = reference
        return reference
    }
}
