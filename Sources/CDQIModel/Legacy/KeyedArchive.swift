/// An `NSKeyedArchiver` archive read from a property list: `$objects`, `$top`, and the object
/// references (`CF$UID`) between them.
///
/// References are followed one step at a time on request, so shared and cyclic object graphs (which
/// keyed archives use freely: an entity points at its owner, which lists the entity) never make a
/// reader recurse. Foundation's collections and strings are decoded from their archived form.
struct KeyedArchive: Sendable {
    /// The archive's objects; index 0 is `$null` by convention.
    let objects: [PropertyListValue]
    /// The top-level keys (`root` for a single archived object).
    let top: [String: PropertyListValue]

    /// Reads the archive structure from a decoded property list.
    init(_ plist: PropertyListValue) throws(KeyedArchiveError) {
        guard case .dictionary(let root) = plist else {
            throw .notAKeyedArchive("the top object is a \(plist.kindName), not a dictionary")
        }
        guard let archiver = root["$archiver"]?.stringValue else { throw .notAKeyedArchive("no '$archiver' key") }
        guard archiver == "NSKeyedArchiver" else {
            throw .notAKeyedArchive("'$archiver' is '\(archiver)', not NSKeyedArchiver")
        }
        guard case .array(let objects) = root["$objects"] else { throw .notAKeyedArchive("no '$objects' array") }
        guard case .dictionary(let top) = root["$top"] else { throw .notAKeyedArchive("no '$top' dictionary") }
        self.objects = objects
        self.top = top
    }

    /// Follows a reference to the value it names; an inline value is returned as is, and `$null`
    /// (or an absent value) as `nil`.
    func resolve(_ value: PropertyListValue?) throws(KeyedArchiveError) -> PropertyListValue? {
        guard let value else { return nil }
        guard case .uid(let reference) = value else { return value == .null ? nil : value }
        guard reference < UInt64(objects.count) else {
            throw .danglingReference(reference, objectCount: objects.count)
        }
        let target = objects[Int(reference)]
        switch target {
        case .string("$null"), .null: return nil
        case .uid: throw .unexpected("object \(reference) is a bare reference to another object")
        default: return target
        }
    }

    /// The archived object a reference names, or `nil` for `$null`.
    func object(_ value: PropertyListValue?) throws(KeyedArchiveError) -> ArchivedObject? {
        guard let resolved = try resolve(value) else { return nil }
        guard case .dictionary(let fields) = resolved else {
            throw .unexpected("expected an archived object, found a \(resolved.kindName)\(Self.at(value))")
        }
        guard let classValue = try resolve(fields["$class"]), case .dictionary(let classInfo) = classValue,
            let className = classInfo["$classname"]?.stringValue
        else {
            throw .unexpected("an archived object has no class name\(Self.at(value))")
        }
        var reference: UInt64 = 0
        if case .uid(let uid) = value { reference = uid }
        return ArchivedObject(reference: reference, className: className, fields: fields)
    }

    /// A string stored inline or as an archived `NSString`/`NSMutableString`; `nil` for `$null`.
    func string(_ value: PropertyListValue?) throws(KeyedArchiveError) -> String? {
        guard let resolved = try resolve(value) else { return nil }
        if case .string(let string) = resolved { return string }
        guard let object = try object(value), let string = try resolve(object["NS.string"])?.stringValue else {
            throw .unexpected("expected a string, found a \(resolved.kindName)\(Self.at(value))")
        }
        return string
    }

    /// The elements of an archived `NSArray`, `NSSet` or their mutable forms (still unresolved);
    /// `[]` for `$null`.
    func elements(_ value: PropertyListValue?) throws(KeyedArchiveError) -> [PropertyListValue] {
        guard let object = try object(value) else { return [] }
        guard case .array(let elements) = try resolve(object["NS.objects"]) else {
            throw .unexpected("expected an array, found a \(object.className)\(Self.at(value))")
        }
        return elements
    }

    /// The entries of an archived `NSDictionary` or `NSMutableDictionary`, keys and values still
    /// unresolved, in archive order; `[]` for `$null`.
    func entries(_ value: PropertyListValue?) throws(KeyedArchiveError) -> [(key: PropertyListValue, value: PropertyListValue)] {
        guard let object = try object(value) else { return [] }
        guard case .array(let keys) = try resolve(object["NS.keys"]),
            case .array(let values) = try resolve(object["NS.objects"])
        else {
            throw .unexpected("expected a dictionary, found a \(object.className)\(Self.at(value))")
        }
        guard keys.count == values.count else {
            throw .unexpected("a dictionary has \(keys.count) keys but \(values.count) values\(Self.at(value))")
        }
        return Array(zip(keys, values)).map { (key: $0.0, value: $0.1) }
    }

    private static func at(_ value: PropertyListValue?) -> String {
        if case .uid(let reference) = value { return " (object \(reference))" }
        return ""
    }
}
