import CDQIPredicate
import Foundation

/// `NSNumber` compares with every number attribute, as in CDQI: `$0.salary > NSNumber(value: 50000)`.
/// An integer stays an integer (an unsigned one above `Int64.max` becomes an exact decimal), a
/// floating-point number a double, an `NSDecimalNumber` an exact decimal, and a Boolean the number 0 or 1.
extension NSNumber: TypedExpressionConvertible {
    /// Numbers compare as numbers.
    public typealias CDQIComparisonType = NSNumber

    /// The number as a constant of the kind its value has.
    public var cdqiStoredValue: StoredValue {
        if let decimal = self as? NSDecimalNumber { return .decimal(decimal.decimalValue) }
        switch String(cString: objCType) {
        case "f", "d":
            return .double(doubleValue)
        case "Q", "L", "I", "S", "C":
            let unsigned = uint64Value
            if let exact = Int64(exactly: unsigned) { return .integer(exact) }
            return .decimal(Decimal(string: String(unsigned)) ?? decimalValue)
        default:
            return .integer(int64Value)
        }
    }
}
