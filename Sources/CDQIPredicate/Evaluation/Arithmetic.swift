import Foundation

/// Scalar functions and operators (§3.9): integer ⊕ integer stays integer (overflow gives the double
/// result), division or modulus by zero and NaN results are nil.
enum Arithmetic {
    static func binary(_ f: BuiltinFunction, _ a: Number, _ b: Number) -> StoredValue? {
        switch (f, a, b) {
        case (.add, .integer(let x), .integer(let y)):
            let (r, o) = x.addingReportingOverflow(y)
            return o ? .double(Double(x) + Double(y)) : .integer(r)
        case (.subtract, .integer(let x), .integer(let y)):
            let (r, o) = x.subtractingReportingOverflow(y)
            return o ? .double(Double(x) - Double(y)) : .integer(r)
        case (.multiply, .integer(let x), .integer(let y)):
            let (r, o) = x.multipliedReportingOverflow(by: y)
            return o ? .double(Double(x) * Double(y)) : .integer(r)
        case (.divide, .integer(let x), .integer(let y)):
            if y == 0 { return .null }
            let (r, o) = x.dividedReportingOverflow(by: y)
            return o ? .double(Double(x) / Double(y)) : .integer(r)
        case (.modulus, .integer(let x), .integer(let y)):
            if y == 0 { return .null }
            let (r, o) = x.remainderReportingOverflow(dividingBy: y)
            return .integer(o ? 0 : r)
        case (.add, _, _): return Number.double(a.doubleValue + b.doubleValue).stored
        case (.subtract, _, _): return Number.double(a.doubleValue - b.doubleValue).stored
        case (.multiply, _, _): return Number.double(a.doubleValue * b.doubleValue).stored
        case (.divide, _, _):
            if b.doubleValue == 0 { return .null }
            return Number.double(a.doubleValue / b.doubleValue).stored
        case (.modulus, _, _):
            if b.doubleValue == 0 { return .null }
            return Number.double(a.doubleValue.truncatingRemainder(dividingBy: b.doubleValue)).stored
        case (.raise, _, _): return Number.double(Foundation.pow(a.doubleValue, b.doubleValue)).stored
        case (.bitwiseAnd, .integer(let x), .integer(let y)): return .integer(x & y)
        case (.bitwiseOr, .integer(let x), .integer(let y)): return .integer(x | y)
        case (.bitwiseXor, .integer(let x), .integer(let y)): return .integer(x ^ y)
        case (.leftShift, .integer(let x), .integer(let y)): return .integer(x << y)
        case (.rightShift, .integer(let x), .integer(let y)): return .integer(x >> y)
        default: return nil
        }
    }

    static func unary(_ f: BuiltinFunction, _ a: Number) -> StoredValue? {
        switch (f, a) {
        case (.negate, .integer(let x)): return x == Int64.min ? .double(-Double(x)) : .integer(-x)
        case (.negate, .double(let x)): return .double(-x)
        case (.abs, .integer(let x)): return x == Int64.min ? .double(-Double(x)) : .integer(Swift.abs(x))
        case (.abs, .double(let x)): return .double(Swift.abs(x))
        case (.ceiling, .integer), (.floor, .integer), (.trunc, .integer), (.noindex, _): return a.stored
        case (.ceiling, .double(let x)): return .double(x.rounded(.up))
        case (.floor, .double(let x)): return .double(x.rounded(.down))
        case (.trunc, .double(let x)): return .double(x.rounded(.towardZero))
        case (.sqrt, _): return Number.double(a.doubleValue.squareRoot()).stored
        case (.log, _): return Number.double(Foundation.log10(a.doubleValue)).stored
        case (.ln, _): return Number.double(Foundation.log(a.doubleValue)).stored
        case (.exp, _): return Number.double(Foundation.exp(a.doubleValue)).stored
        case (.onesComplement, .integer(let x)): return .integer(~x)
        default: return nil
        }
    }
}
