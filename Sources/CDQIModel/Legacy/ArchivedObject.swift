/// One object of a keyed archive: its class name and its encoded fields (values or references).
struct ArchivedObject: Sendable, Hashable {
    /// The object's index in the archive's `$objects`.
    var reference: UInt64
    /// The name of the object's class (`$classname` of its `$class`).
    var className: String
    /// The encoded fields, by key; references are still ``PropertyListValue/uid(_:)``.
    var fields: [String: PropertyListValue]

    /// The field for `key`, or `nil` when the object did not encode it.
    subscript(key: String) -> PropertyListValue? { fields[key] }
}
