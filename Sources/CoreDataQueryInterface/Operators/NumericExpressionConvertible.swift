import CDQIPredicate
import Foundation

/// The integers: every width compares with every integer (and floating-point and decimal) attribute.
/// The signed widths convert directly; an unsigned value too large for a 64-bit signed integer (a
/// `UInt64` above `Int64.max`) becomes an exact decimal constant.
extension BinaryInteger where Self: TypedExpressionConvertible {
    /// The integer as a constant.
    public var cdqiStoredValue: StoredValue {
        if let exact = Int64(exactly: self) { return .integer(exact) }
        return .decimal(Decimal(string: String(self)) ?? Decimal(Double(self)))
    }
}

extension Int: TypedExpressionConvertible {
    /// Integers compare as numbers.
    public typealias CDQIComparisonType = NSNumber
    /// The integer as a constant.
    public var cdqiStoredValue: StoredValue { .integer(Int64(self)) }
}

extension Int8: TypedExpressionConvertible {
    /// Integers compare as numbers.
    public typealias CDQIComparisonType = NSNumber
    /// The integer as a constant.
    public var cdqiStoredValue: StoredValue { .integer(Int64(self)) }
}

extension Int16: TypedExpressionConvertible {
    /// Integers compare as numbers.
    public typealias CDQIComparisonType = NSNumber
    /// The integer as a constant.
    public var cdqiStoredValue: StoredValue { .integer(Int64(self)) }
}

extension Int32: TypedExpressionConvertible {
    /// Integers compare as numbers.
    public typealias CDQIComparisonType = NSNumber
    /// The integer as a constant.
    public var cdqiStoredValue: StoredValue { .integer(Int64(self)) }
}

extension Int64: TypedExpressionConvertible {
    /// Integers compare as numbers.
    public typealias CDQIComparisonType = NSNumber
    /// The integer as a constant.
    public var cdqiStoredValue: StoredValue { .integer(self) }
}

extension UInt: TypedExpressionConvertible {
    /// Integers compare as numbers.
    public typealias CDQIComparisonType = NSNumber
}

extension UInt8: TypedExpressionConvertible {
    /// Integers compare as numbers.
    public typealias CDQIComparisonType = NSNumber
}

extension UInt16: TypedExpressionConvertible {
    /// Integers compare as numbers.
    public typealias CDQIComparisonType = NSNumber
}

extension UInt32: TypedExpressionConvertible {
    /// Integers compare as numbers.
    public typealias CDQIComparisonType = NSNumber
}

extension UInt64: TypedExpressionConvertible {
    /// Integers compare as numbers.
    public typealias CDQIComparisonType = NSNumber
}

extension Double: TypedExpressionConvertible {
    /// Floating-point numbers compare as numbers.
    public typealias CDQIComparisonType = NSNumber
    /// The number as a constant (NaN becomes NULL, which nothing equals).
    public var cdqiStoredValue: StoredValue { .double(self) }
}

extension Float: TypedExpressionConvertible {
    /// Floating-point numbers compare as numbers.
    public typealias CDQIComparisonType = NSNumber
    /// The number as a constant.
    public var cdqiStoredValue: StoredValue { .double(Double(self)) }
}

extension Decimal: TypedExpressionConvertible {
    /// Decimals compare as numbers.
    public typealias CDQIComparisonType = NSNumber
    /// The decimal as a constant.
    public var cdqiStoredValue: StoredValue { .decimal(self) }
}
