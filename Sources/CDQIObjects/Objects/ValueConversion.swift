import CDQIModel
import CDQIPredicate
import Foundation

/// Converting attribute values between Swift values, ``StoredValue``s and SQLite columns, the way Core
/// Data stores them: integers and booleans (0/1) as INTEGER, dates as REAL seconds since 2001, decimals
/// as REAL, UUIDs as 16-byte BLOBs, URIs as text.
package enum ValueConversion {
    /// The error a conversion reports: what the attribute takes.
    struct Mismatch: Error {
        var expected: String
        var outOfRange = false
    }

    /// Converts a Swift value for an attribute of `type`; `nil` (or `NSNull`) gives `.null`.
    static func storedValue(_ value: Any?, type: AttributeType) throws(Mismatch) -> StoredValue {
        guard let value else { return .null }
        if let stored = try exactTypeValue(value, type: type) { return stored }
        guard let value = unwrap(value) else { return .null }
        if let stored = value as? StoredValue { return try coerce(stored, type: type) }
        switch type {
        case .integer16, .integer32, .integer64:
            guard let integer = integer(value) else { throw Mismatch(expected: "an integer") }
            try checkRange(integer, type: type)
            return .integer(integer)
        case .double, .float:
            if let double = value as? Double { return .double(type == .float ? Double(Float(double)) : double) }
            if let float = value as? Float { return .double(Double(float)) }
            if let integer = integer(value) { return .double(Double(integer)) }
            throw Mismatch(expected: "a floating-point number")
        case .decimal:
            if let decimal = value as? Decimal { return .decimal(decimal) }
            if let double = value as? Double { return .decimal(Decimal(string: String(double)) ?? Decimal(double)) }
            if let integer = integer(value) { return .decimal(Decimal(integer)) }
            throw Mismatch(expected: "a Decimal")
        case .string:
            if let string = value as? String { return .string(string) }
            if let string = value as? Substring { return .string(String(string)) }
            throw Mismatch(expected: "a String")
        case .boolean:
            guard let bool = value as? Bool else { throw Mismatch(expected: "a Bool") }
            return .bool(bool)
        case .date:
            guard let date = value as? Date else { throw Mismatch(expected: "a Date") }
            return .date(date)
        case .binaryData, .transformable:
            if let data = value as? Data { return .data(data) }
            if let bytes = value as? [UInt8] { return .data(Data(bytes)) }
            throw Mismatch(expected: type == .transformable ? "Data (the transformed value)" : "Data")
        case .uuid:
            guard let uuid = value as? UUID else { throw Mismatch(expected: "a UUID") }
            return .uuid(uuid)
        case .uri:
            guard let url = value as? URL else { throw Mismatch(expected: "a URL") }
            return .uri(url)
        case .objectID:
            if let id = value as? ManagedObjectID { return .objectID(id.reference) }
            if let reference = value as? ObjectReference { return .objectID(reference) }
            throw Mismatch(expected: "a ManagedObjectID")
        case .undefined, .composite:
            throw Mismatch(expected: "nothing (attributes of type \(type.rawValue) are not supported)")
        }
    }

    /// A ``StoredValue`` given directly: accepted when its kind fits the type.
    private static func coerce(_ value: StoredValue, type: AttributeType) throws(Mismatch) -> StoredValue {
        switch (value, type) {
        case (.null, _): return .null
        case (.integer(let v), .integer16), (.integer(let v), .integer32), (.integer(let v), .integer64):
            try checkRange(v, type: type)
            return value
        case (.double, .double), (.double, .float), (.decimal, .decimal), (.string, .string), (.bool, .boolean),
            (.date, .date), (.data, .binaryData), (.data, .transformable), (.uuid, .uuid), (.uri, .uri),
            (.objectID, .objectID):
            return value
        case (.integer(let v), .double), (.integer(let v), .float): return .double(Double(v))
        case (.integer(let v), .decimal): return .decimal(Decimal(v))
        case (.double(let v), .decimal): return .decimal(Decimal(string: String(v)) ?? Decimal(v))
        default: throw Mismatch(expected: "a \(type.rawValue) value")
        }
    }

    private static func checkRange(_ value: Int64, type: AttributeType) throws(Mismatch) {
        switch type {
        case .integer16 where Int64(Int16.min)...Int64(Int16.max) ~= value: return
        case .integer32 where Int64(Int32.min)...Int64(Int32.max) ~= value: return
        case .integer64: return
        default: throw Mismatch(expected: "an integer that fits \(type.rawValue)", outOfRange: true)
        }
    }

    /// The value when it has the attribute's own Swift type (the common case), else `nil`: a cast to an
    /// exact type is cheap, where the general path's checks (an optional inside the `Any`, `NSNull`,
    /// bridged numbers) cost more than the conversion itself.
    private static func exactTypeValue(_ value: Any, type: AttributeType) throws(Mismatch) -> StoredValue? {
        switch type {
        case .string:
            if let string = value as? String { return .string(string) }
        case .integer16, .integer32, .integer64:
            let integer =
                (value as? Int).map(Int64.init) ?? (value as? Int64)
                ?? (value as? Int32).map(Int64.init) ?? (value as? Int16).map(Int64.init)
            if let integer {
                try checkRange(integer, type: type)
                return .integer(integer)
            }
        case .double:
            if let double = value as? Double { return .double(double) }
        case .boolean:
            if let bool = value as? Bool { return .bool(bool) }
        case .date:
            if let date = value as? Date { return .date(date) }
        default:
            break
        }
        return nil
    }

    private static func unwrap(_ value: Any?) -> Any? {
        guard let value else { return nil }
        // An optional inside the `Any` (a `String??` passed along): look through it.
        if let optional = value as? any OptionalValue { return unwrap(optional.wrappedValue) }
        if value is NSNull { return nil }
        return value
    }

    private static func integer(_ value: Any) -> Int64? {
        if value is Bool { return nil }
        switch value {
        case let v as Int: return Int64(v)
        case let v as Int64: return v
        case let v as Int32: return Int64(v)
        case let v as Int16: return Int64(v)
        case let v as Int8: return Int64(v)
        case let v as UInt8: return Int64(v)
        case let v as UInt16: return Int64(v)
        case let v as UInt32: return Int64(v)
        case let v as UInt: return Int64(exactly: v)
        case let v as UInt64: return Int64(exactly: v)
        default: return nil
        }
    }

    /// The Swift value of a stored value for an attribute of `type`: `Int16`/`Int32`/`Int64`, `Double`,
    /// `Float`, `Decimal`, `String`, `Bool`, `Date`, `Data`, `UUID`, `URL`; `nil` for `.null`.
    static func swiftValue(_ value: StoredValue, type: AttributeType) -> Any? {
        switch value {
        case .null: return nil
        case .integer(let v):
            switch type {
            case .integer16: return Int16(truncatingIfNeeded: v)
            case .integer32: return Int32(truncatingIfNeeded: v)
            case .boolean: return v != 0
            case .double: return Double(v)
            case .float: return Float(v)
            default: return v
            }
        case .double(let v): return type == .float ? Float(v) : v
        case .decimal(let v): return v
        case .string(let v): return v
        case .bool(let v): return v
        case .date(let seconds): return Date(timeIntervalSinceReferenceDate: seconds)
        case .data(let v): return v
        case .uuid(let v): return v
        case .uri(let v): return v
        case .objectID(let v): return v
        }
    }

    /// A value decoded from another engine's row (integers, doubles, text, bytes) as a value of an
    /// attribute of `type`, by the rules the SQLite store reads its columns with.
    static func attributeValue(_ value: StoredValue, type: AttributeType) -> StoredValue {
        if case .null = value { return .null }
        switch (type, value) {
        case (.integer16, .integer), (.integer32, .integer), (.integer64, .integer): return value
        case (.integer16, .double(let double)), (.integer32, .double(let double)), (.integer64, .double(let double)):
            return Int64(exactly: double).map(StoredValue.integer) ?? .double(double)
        case (.boolean, .integer(let integer)): return .bool(integer != 0)
        case (.boolean, .bool): return value
        case (.date, .double(let seconds)): return .date(secondsSinceReferenceDate: seconds)
        case (.date, .integer(let seconds)): return .date(secondsSinceReferenceDate: Double(seconds))
        case (.date, .date): return value
        case (.double, .double), (.float, .double): return value
        case (.double, .integer(let integer)), (.float, .integer(let integer)): return .double(Double(integer))
        case (.decimal, .double(let double)): return .decimal(Decimal(string: String(double)) ?? Decimal(double))
        case (.decimal, .integer(let integer)): return .decimal(Decimal(integer))
        case (.decimal, .decimal): return value
        case (.string, .string): return value
        case (.uri, .string(let text)): return URL(string: text).map(StoredValue.uri) ?? .string(text)
        case (.uuid, .data(let data)):
            guard data.count == 16 else { return .data(data) }
            return .uuid(data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) })
        case (.uuid, .string(let text)): return UUID(uuidString: text).map(StoredValue.uuid) ?? .string(text)
        case (.uuid, .uuid): return value
        case (.binaryData, .data), (.transformable, .data): return value
        case (.objectID, .string(let text)): return ObjectReference(uriString: text).map(StoredValue.objectID) ?? .null
        case (.undefined, _), (.composite, _): return .null
        default: return value
        }
    }

    /// The default value of a new object's attribute, from the model.
    package static func defaultValue(of attribute: AttributeDescription) -> StoredValue {
        if attribute.type == .date, let seconds = attribute.defaultDateTimeInterval {
            return .date(secondsSinceReferenceDate: seconds)
        }
        guard let text = attribute.defaultValueString else { return .null }
        switch attribute.type {
        case .integer16, .integer32, .integer64: return Int64(text).map(StoredValue.integer) ?? .null
        case .double, .float: return Double(text).map(StoredValue.double) ?? .null
        case .decimal: return Decimal(string: text).map(StoredValue.decimal) ?? .null
        case .string: return .string(text)
        case .boolean:
            switch text.lowercased() {
            case "yes", "true", "1": return .bool(true)
            case "no", "false", "0": return .bool(false)
            default: return .null
            }
        case .date: return Double(text).map { StoredValue.date(secondsSinceReferenceDate: $0) } ?? .null
        case .uuid: return UUID(uuidString: text).map(StoredValue.uuid) ?? .null
        case .uri: return URL(string: text).map(StoredValue.uri) ?? .null
        default: return .null
        }
    }
}

/// Lets a value typed `Any` be checked for being an `Optional` without reflection.
private protocol OptionalValue {
    var wrappedValue: Any? { get }
}

extension Optional: OptionalValue {
    fileprivate var wrappedValue: Any? { self.map { $0 as Any } }
}
