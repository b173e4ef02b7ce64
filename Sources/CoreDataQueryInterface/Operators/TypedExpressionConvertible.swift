import CDQIPredicate
import Foundation

/// A Swift value that can stand on the right of a typed comparison with a proxy.
///
/// The operators take a value of the attribute's own value type, so `$0.salary > 5` compiles for an
/// Integer 32 attribute (the literal becomes an `Int32`) and `$0.lastName == 5` does not compile.
public protocol TypedExpressionConvertible {
    /// The value as a predicate constant.
    var cdqiStoredValue: StoredValue { get }
}

extension String: TypedExpressionConvertible {
    /// The string as a constant.
    public var cdqiStoredValue: StoredValue { .string(self) }
}

extension Int16: TypedExpressionConvertible {
    /// The integer as a constant.
    public var cdqiStoredValue: StoredValue { .integer(Int64(self)) }
}

extension Int32: TypedExpressionConvertible {
    /// The integer as a constant.
    public var cdqiStoredValue: StoredValue { .integer(Int64(self)) }
}

extension Int64: TypedExpressionConvertible {
    /// The integer as a constant.
    public var cdqiStoredValue: StoredValue { .integer(self) }
}

extension Double: TypedExpressionConvertible {
    /// The number as a constant.
    public var cdqiStoredValue: StoredValue { .double(self) }
}

extension Bool: TypedExpressionConvertible {
    /// The Boolean as a constant.
    public var cdqiStoredValue: StoredValue { .bool(self) }
}

extension Float: TypedExpressionConvertible {
    /// The number as a constant.
    public var cdqiStoredValue: StoredValue { .double(Double(self)) }
}

extension Decimal: TypedExpressionConvertible {
    /// The decimal as a constant.
    public var cdqiStoredValue: StoredValue { .decimal(self) }
}

extension Date: TypedExpressionConvertible {
    /// The date as Core Data stores it (seconds since 2001-01-01).
    public var cdqiStoredValue: StoredValue { .date(secondsSinceReferenceDate: timeIntervalSinceReferenceDate) }
}

extension Data: TypedExpressionConvertible {
    /// The bytes as a constant.
    public var cdqiStoredValue: StoredValue { .data(self) }
}

extension UUID: TypedExpressionConvertible {
    /// The UUID as a constant.
    public var cdqiStoredValue: StoredValue { .uuid(self) }
}

extension URL: TypedExpressionConvertible {
    /// The URL as a constant.
    public var cdqiStoredValue: StoredValue { .uri(self) }
}
