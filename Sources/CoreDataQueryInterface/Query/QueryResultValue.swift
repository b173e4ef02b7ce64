import CDQIPredicate
import CDQIStore
import Foundation

/// A Swift type a column of a typed query decodes into.
///
/// Decoding is strict about the kind of value and exact about ranges: an integer column decodes into
/// `Int16`, `Int32`, `Int64` or `Int` when the value fits, a real column into `Double` or `Float`
/// (integers are accepted there too, as SQL's `average` and `sum` may yield either), a date column into
/// `Date`. Anything else is a ``QueryError/valueMismatch(column:expected:actual:)``, never a crash.
///
/// Types of your own (a `Weekday: Int32` enum) conform by declaring it: `extension Weekday: QueryResultValue {}`
/// works for every `RawRepresentable` whose raw value conforms; an unknown raw value is a mismatch.
/// A conformance may not be isolated to an actor (the metatype is `Sendable`), so that typed queries
/// can run in another task (`all(in:)`).
public protocol QueryResultValue: SendableMetatype {
    /// The value a non-NULL stored value stands for, or `nil` when it is of another kind or out of range.
    static func cdqiDecode(_ value: StoredValue, context: ManagedObjectContext) -> Self?
}

extension QueryResultValue where Self: RawRepresentable, RawValue: QueryResultValue {
    /// The raw value decoded, then turned into `Self`.
    public static func cdqiDecode(_ value: StoredValue, context: ManagedObjectContext) -> Self? {
        RawValue.cdqiDecode(value, context: context).flatMap(Self.init(rawValue:))
    }
}

/// Integers from integer (and boolean) columns, when they fit.
private func decodeInteger<I: FixedWidthInteger>(_ value: StoredValue) -> I? {
    switch value {
    case .integer(let integer): I(exactly: integer)
    case .bool(let bool): bool ? 1 : 0
    default: nil
    }
}

extension Int: QueryResultValue {
    /// An integer that fits.
    public static func cdqiDecode(_ value: StoredValue, context: ManagedObjectContext) -> Int? { decodeInteger(value) }
}

extension Int16: QueryResultValue {
    /// An integer that fits.
    public static func cdqiDecode(_ value: StoredValue, context: ManagedObjectContext) -> Int16? { decodeInteger(value) }
}

extension Int32: QueryResultValue {
    /// An integer that fits.
    public static func cdqiDecode(_ value: StoredValue, context: ManagedObjectContext) -> Int32? { decodeInteger(value) }
}

extension Int64: QueryResultValue {
    /// An integer.
    public static func cdqiDecode(_ value: StoredValue, context: ManagedObjectContext) -> Int64? { decodeInteger(value) }
}

extension Double: QueryResultValue {
    /// A real, an integer or a decimal, as a `Double`.
    public static func cdqiDecode(_ value: StoredValue, context: ManagedObjectContext) -> Double? {
        switch value {
        case .double(let double): double
        case .integer(let integer): Double(integer)
        case .decimal(let decimal): StoredValue.decimalAsDouble(decimal)
        default: nil
        }
    }
}

extension Float: QueryResultValue {
    /// A real or an integer, as a `Float`.
    public static func cdqiDecode(_ value: StoredValue, context: ManagedObjectContext) -> Float? {
        Double.cdqiDecode(value, context: context).map(Float.init)
    }
}

extension Decimal: QueryResultValue {
    /// A decimal, or a real or integer converted through its decimal text.
    public static func cdqiDecode(_ value: StoredValue, context: ManagedObjectContext) -> Decimal? {
        switch value {
        case .decimal(let decimal): decimal
        case .integer(let integer): Decimal(integer)
        case .double(let double): double.isFinite ? Decimal(string: String(double)) : nil
        default: nil
        }
    }
}

extension Bool: QueryResultValue {
    /// A boolean, or the integers 0 and 1.
    public static func cdqiDecode(_ value: StoredValue, context: ManagedObjectContext) -> Bool? {
        switch value {
        case .bool(let bool): bool
        case .integer(0): false
        case .integer(1): true
        default: nil
        }
    }
}

extension String: QueryResultValue {
    /// A string.
    public static func cdqiDecode(_ value: StoredValue, context: ManagedObjectContext) -> String? {
        if case .string(let string) = value { return string }
        return nil
    }
}

extension Date: QueryResultValue {
    /// A date (or a real: seconds since 2001-01-01, as Core Data stores dates).
    public static func cdqiDecode(_ value: StoredValue, context: ManagedObjectContext) -> Date? {
        switch value {
        case .date(let seconds), .double(let seconds): Date(timeIntervalSinceReferenceDate: seconds)
        default: nil
        }
    }
}

extension Data: QueryResultValue {
    /// Binary data.
    public static func cdqiDecode(_ value: StoredValue, context: ManagedObjectContext) -> Data? {
        if case .data(let data) = value { return data }
        return nil
    }
}

extension UUID: QueryResultValue {
    /// A UUID.
    public static func cdqiDecode(_ value: StoredValue, context: ManagedObjectContext) -> UUID? {
        if case .uuid(let uuid) = value { return uuid }
        return nil
    }
}

extension URL: QueryResultValue {
    /// A URI.
    public static func cdqiDecode(_ value: StoredValue, context: ManagedObjectContext) -> URL? {
        if case .uri(let url) = value { return url }
        return nil
    }
}

extension ManagedObjectID: QueryResultValue {
    /// The ID of the object a to-one relationship points to, in the context's store.
    public static func cdqiDecode(_ value: StoredValue, context: ManagedObjectContext) -> ManagedObjectID? {
        if case .objectID(let reference) = value { return context.objectID(for: reference) }
        return nil
    }
}

/// Converting the stored values of dictionary results into Swift values.
enum QueryValueConversion {
    /// The Swift value of a stored value in a dictionary result: `Int` for integers, `Double`, `Decimal`,
    /// `String`, `Bool`, `Date`, `Data`, `UUID`, `URL`, and ``ManagedObjectID`` for objects (the
    /// ``ObjectReference`` itself when the context does not know the entity). `nil` for NULL.
    static func swiftValue(_ value: StoredValue, context: ManagedObjectContext) -> (any Sendable)? {
        switch value {
        case .null: nil
        case .integer(let integer): Int(exactly: integer) ?? integer
        case .double(let double): double
        case .decimal(let decimal): decimal
        case .string(let string): string
        case .bool(let bool): bool
        case .date(let seconds): Date(timeIntervalSinceReferenceDate: seconds)
        case .data(let data): data
        case .uuid(let uuid): uuid
        case .uri(let url): url
        case .objectID(let reference): context.objectID(for: reference) ?? reference
        }
    }

    /// A short description of a stored value's kind for error messages (`an integer (7)`).
    static func describe(_ value: StoredValue) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let integer): "an integer (\(integer))"
        case .double(let double): "a real (\(double))"
        case .decimal(let decimal): "a decimal (\(decimal))"
        case .string(let string): "a string (\(string.debugDescription))"
        case .bool(let bool): "a boolean (\(bool))"
        case .date(let seconds): "a date (\(Date(timeIntervalSinceReferenceDate: seconds)))"
        case .data(let data): "data (\(data.count) bytes)"
        case .uuid(let uuid): "a UUID (\(uuid))"
        case .uri(let url): "a URI (\(url))"
        case .objectID(let reference): "an object ID (\(reference))"
        }
    }
}

extension NSNumber: QueryResultValue {
    /// A number (integer, real, decimal or Boolean) as an `NSNumber`; a decimal as an `NSDecimalNumber`.
    /// Asked for as `NSDecimalNumber`, every number decodes as one.
    public static func cdqiDecode(_ value: StoredValue, context: ManagedObjectContext) -> Self? {
        if Self.self is NSDecimalNumber.Type {
            guard let decimal = Decimal.cdqiDecode(value, context: context) else { return nil }
            return NSDecimalNumber(decimal: decimal) as? Self
        }
        let number: NSNumber? =
            switch value {
            case .integer(let integer): NSNumber(value: integer)
            case .double(let double): NSNumber(value: double)
            case .decimal(let decimal): NSDecimalNumber(decimal: decimal)
            case .bool(let bool): NSNumber(value: bool)
            default: nil
            }
        return number as? Self
    }
}
