import CDQIPredicate
import Foundation

/// The explicit conversions from what the store holds to the primitive types (what `NSNumber`
/// bridging does on Apple platforms, spelled out).
extension StoredValue {
    /// The value as a whole number: an integer, a boolean (0 or 1), or a floating-point or decimal value
    /// with no fractional part that fits in 64 bits; otherwise `nil`.
    var wholeNumber: Int64? {
        switch self {
        case .integer(let value): value
        case .bool(let value): value ? 1 : 0
        case .double(let value): Int64(exactly: value)
        case .decimal(let value): Self.wholeNumber(value)
        default: nil
        }
    }

    /// The value as a binary floating-point number: a double, an integer or boolean, or a decimal
    /// (converted through its text, correctly rounded); otherwise `nil`.
    var floatingPoint: Double? {
        switch self {
        case .double(let value): value
        case .integer(let value): Double(value)
        case .bool(let value): value ? 1 : 0
        case .decimal(let value): StoredValue.decimalAsDouble(value)
        default: nil
        }
    }

    /// A decimal with no fractional part that fits in 64 bits, read through its text so nothing is lost.
    private static func wholeNumber(_ value: Decimal) -> Int64? {
        guard value.isFinite else { return nil }
        var rounded = Decimal()
        var source = value
        NSDecimalRound(&rounded, &source, 0, .plain)
        guard rounded == value else { return nil }
        return Int64(rounded.description)
    }

    /// The error for a stored value that does not fit a type: the value itself, as Swift would show it.
    var badInput: AttributeError { .badInput(plainValue) }

    /// The stored value as the plain Swift value it holds (`nil` for null).
    var plainValue: (any Sendable)? {
        switch self {
        case .null: nil
        case .integer(let value): value
        case .double(let value): value
        case .decimal(let value): value
        case .string(let value): value
        case .bool(let value): value
        case .date(let seconds): Date(timeIntervalSinceReferenceDate: seconds)
        case .data(let value): value
        case .uuid(let value): value
        case .uri(let value): value
        case .objectID(let reference): reference
        }
    }
}
