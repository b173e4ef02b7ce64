import CDQIPredicate
import Foundation

/// A Swift value that can stand on the right of a typed comparison with a proxy.
///
/// The operators accept a value whose ``CDQIComparisonType`` is the proxy's, so `$0.salary > 5`
/// compiles for an Integer 32 attribute and so does `$0.salary > limit` with `limit: Int`, while
/// `$0.lastName == 5` does not compile. Every integer width, `Float`, `Double` and `Decimal` compare
/// as `NSNumber`; `String`, `Bool`, `Date`, `Data`, `UUID` and `URL` as themselves; managed objects
/// and object IDs as ``ManagedObject``.
///
/// Your own types conform by naming their comparison type and their stored value. An enum with raw
/// values only has to declare the conformance: its comparison type and value are its raw value's.
///
/// ```swift
/// enum Weekday: Int, TypedExpressionConvertible {
///     case sunday = 1, monday, tuesday, wednesday, thursday, friday, saturday
/// }
/// Query.from(Shift.self).filter { $0.weekday == Weekday.monday }   // weekday: Integer 32
/// ```
public protocol TypedExpressionConvertible {
    /// The type values compare as (`NSNumber` for every number).
    associatedtype CDQIComparisonType
    /// The value as a predicate constant.
    var cdqiStoredValue: StoredValue { get }
}

extension TypedExpressionConvertible {
    /// The value as a constant expression.
    public var cdqiConstantExpression: ExpressionNode { .constant(cdqiStoredValue) }
}

extension TypedExpressionConvertible where Self: RawRepresentable, RawValue: TypedExpressionConvertible {
    /// A raw-valued type compares as its raw value does.
    public typealias CDQIComparisonType = RawValue.CDQIComparisonType

    /// The raw value as a constant.
    public var cdqiStoredValue: StoredValue { rawValue.cdqiStoredValue }
}

extension Optional: TypedExpressionConvertible where Wrapped: TypedExpressionConvertible {
    /// An optional compares as its wrapped type does.
    public typealias CDQIComparisonType = Wrapped.CDQIComparisonType

    /// The wrapped value, or NULL.
    public var cdqiStoredValue: StoredValue { self?.cdqiStoredValue ?? .null }
}

extension String: TypedExpressionConvertible {
    /// Strings compare with strings.
    public typealias CDQIComparisonType = String
    /// The string as a constant.
    public var cdqiStoredValue: StoredValue { .string(self) }
}

extension Bool: TypedExpressionConvertible {
    /// Booleans compare with Booleans.
    public typealias CDQIComparisonType = Bool
    /// The Boolean as a constant.
    public var cdqiStoredValue: StoredValue { .bool(self) }
}

extension Date: TypedExpressionConvertible {
    /// Dates compare with dates.
    public typealias CDQIComparisonType = Date
    /// The date as Core Data stores it (seconds since 2001-01-01).
    public var cdqiStoredValue: StoredValue { .date(secondsSinceReferenceDate: timeIntervalSinceReferenceDate) }
}

extension Data: TypedExpressionConvertible {
    /// Data compares with data.
    public typealias CDQIComparisonType = Data
    /// The bytes as a constant.
    public var cdqiStoredValue: StoredValue { .data(self) }
}

extension UUID: TypedExpressionConvertible {
    /// UUIDs compare with UUIDs.
    public typealias CDQIComparisonType = UUID
    /// The UUID as a constant.
    public var cdqiStoredValue: StoredValue { .uuid(self) }
}

extension URL: TypedExpressionConvertible {
    /// URLs compare with URLs.
    public typealias CDQIComparisonType = URL
    /// The URL as a constant.
    public var cdqiStoredValue: StoredValue { .uri(self) }
}
