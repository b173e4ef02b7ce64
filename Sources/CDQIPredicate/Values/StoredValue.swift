import Foundation

/// A single scalar value as Core Data stores it: the one value type that flows between SQLite rows,
/// managed objects, the predicate AST and the evaluators.
///
/// Dates are kept as Core Data keeps them: seconds since 2001-01-01 00:00:00 UTC
/// (`Date.timeIntervalSinceReferenceDate`).
public enum StoredValue: Sendable, Hashable {
    /// The absence of a value (`nil`, `NULL`, `NSNull`).
    case null
    /// A signed 64-bit integer (Integer 16/32/64 attributes).
    case integer(Int64)
    /// A binary floating-point number (Double and Float attributes).
    case double(Double)
    /// A decimal number (Decimal attributes). It compares and computes as ``decimalAsDouble(_:)``.
    case decimal(Decimal)
    /// A string.
    case string(String)
    /// A boolean; it behaves as the number 0 or 1.
    case bool(Bool)
    /// A date, as seconds since 2001-01-01 00:00:00 UTC.
    case date(secondsSinceReferenceDate: Double)
    /// Binary data.
    case data(Data)
    /// A UUID.
    case uuid(UUID)
    /// A URI.
    case uri(URL)
    /// A reference to a managed object. Boxed (`indirect`): the reference holds two strings, and
    /// inline it would make every stored value 49 bytes instead of 21 (values fill every object's slots).
    indirect case objectID(ObjectReference)

    /// Creates a date value from a `Date`.
    public static func date(_ date: Date) -> StoredValue {
        .date(secondsSinceReferenceDate: date.timeIntervalSinceReferenceDate)
    }

    /// `true` for ``null``.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The `Double` nearest to a decimal, converted through its decimal text (correctly rounded),
    /// never through `Decimal.doubleValue`, which loses precision (`0.07` would become
    /// `0.06999999999999999`).
    public static func decimalAsDouble(_ value: Decimal) -> Double {
        Double(value.description) ?? Double.nan
    }
}
