import CDQIPredicate
import Foundation

/// The number types of numeric attributes, which ``BatchAssignments/increase(_:by:)`` and
/// ``BatchAssignments/multiply(_:by:)`` can compute with in SQL.
public protocol BatchArithmeticValue: Sendable {
    /// The value as the constant of an expression (bound as a parameter when the statement runs).
    var cdqiBatchConstant: StoredValue { get }
}

extension Int: BatchArithmeticValue {
    /// The value as an integer constant.
    public var cdqiBatchConstant: StoredValue { .integer(Int64(self)) }
}

extension Int16: BatchArithmeticValue {
    /// The value as an integer constant.
    public var cdqiBatchConstant: StoredValue { .integer(Int64(self)) }
}

extension Int32: BatchArithmeticValue {
    /// The value as an integer constant.
    public var cdqiBatchConstant: StoredValue { .integer(Int64(self)) }
}

extension Int64: BatchArithmeticValue {
    /// The value as an integer constant.
    public var cdqiBatchConstant: StoredValue { .integer(self) }
}

extension Double: BatchArithmeticValue {
    /// The value as a floating-point constant.
    public var cdqiBatchConstant: StoredValue { .double(self) }
}

extension Float: BatchArithmeticValue {
    /// The value as a floating-point constant.
    public var cdqiBatchConstant: StoredValue { .double(Double(self)) }
}

extension Decimal: BatchArithmeticValue {
    /// The value as a decimal constant.
    public var cdqiBatchConstant: StoredValue { .decimal(self) }
}
