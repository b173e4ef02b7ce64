import CDQIPredicate
import Foundation

extension StoredValue {
    /// The value in the interchange format: integers and floating-point numbers as JSON numbers
    /// (non-finite ones as the strings `"NaN"`, `"Infinity"`, `"-Infinity"`), decimals as strings (exact
    /// text), dates as ISO 8601 strings (seconds since 2001 as a number when outside the years
    /// 0001–9999), data as base64, UUIDs and URIs as strings, object references as `Entity/pk`.
    public var interchangeJSON: JSONValue {
        switch self {
        case .null: return .null
        case .integer(let value): return .number(String(value))
        case .double(let value): return Self.json(double: value)
        case .decimal(let value): return .string(value.description)
        case .string(let value): return .string(value)
        case .bool(let value): return .bool(value)
        case .date(let seconds):
            return DateText.format(secondsSinceReferenceDate: seconds).map(JSONValue.string) ?? Self.json(double: seconds)
        case .data(let value): return .string(value.base64EncodedString())
        case .uuid(let value): return .string(value.uuidString)
        case .uri(let value): return .string(value.absoluteString)
        case .objectID(let reference): return .string(ObjectKey.string(for: reference))
        }
    }

    /// The value as plain text for tables and CSV, or `nil` for ``null``: numbers in their shortest exact
    /// form, booleans as `true`/`false`, dates in ISO 8601, data in base64, object references as `Entity/pk`.
    public var interchangeText: String? {
        switch interchangeJSON {
        case .null: return nil
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let text), .string(let text): return text
        case .array, .object: return nil  // never produced for a stored value
        }
    }

    static func json(double value: Double) -> JSONValue {
        if value.isNaN { return .string("NaN") }
        if value.isInfinite { return .string(value < 0 ? "-Infinity" : "Infinity") }
        // Swift prints the shortest text that reads back as the same Double ("0.1", "1e-07", "5e+20"),
        // which is also a valid JSON number.
        return .number("\(value)")
    }
}
