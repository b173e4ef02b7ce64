/// One value of a property list, as the binary (`bplist00`) format stores it.
///
/// Keyed archives add ``uid(_:)``, a reference to another object of the archive's `$objects` array.
enum PropertyListValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    /// A date, in seconds since 2001-01-01 00:00:00 UTC.
    case date(Double)
    case data([UInt8])
    case string(String)
    /// A keyed archive's object reference (`CF$UID`).
    case uid(UInt64)
    case array([PropertyListValue])
    case set([PropertyListValue])
    /// A dictionary; keys are strings in every property list a keyed archive holds.
    case dictionary([String: PropertyListValue])

    /// The string, for a string value.
    var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, for an integer value.
    var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The flag, for a boolean (or an integer 0 or 1, as some archives write flags).
    var boolValue: Bool? {
        switch self {
        case .bool(let value): return value
        case .integer(0): return false
        case .integer(1): return true
        default: return nil
        }
    }

    /// A short name of the value's kind, for error messages.
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer: "integer"
        case .real: "real"
        case .date: "date"
        case .data: "data"
        case .string: "string"
        case .uid: "object reference"
        case .array: "array"
        case .set: "set"
        case .dictionary: "dictionary"
        }
    }
}
