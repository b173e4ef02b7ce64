import CDQIPredicate
import Foundation

// The 13 primitive attribute types: each is stored as itself and converts explicitly from what the
// store holds (see `PrimitiveAttribute`).

extension Bool: PrimitiveAttribute, SupportedAttributeType {
    public var storedValue: StoredValue { .bool(self) }
    /// Reads a boolean, or an integer 0 or 1.
    public init(storedValue: StoredValue) throws(AttributeError) {
        switch storedValue {
        case .bool(let value): self = value
        case .integer(0): self = false
        case .integer(1): self = true
        default: throw storedValue.badInput
        }
    }
}

extension Int: PrimitiveAttribute, SupportedAttributeType {
    public var storedValue: StoredValue { .integer(Int64(self)) }
    /// Reads any integer column, or a whole floating-point or decimal value, that fits.
    public init(storedValue: StoredValue) throws(AttributeError) {
        guard let whole = storedValue.wholeNumber, let value = Int(exactly: whole) else { throw storedValue.badInput }
        self = value
    }
}

extension Int16: PrimitiveAttribute, SupportedAttributeType {
    public var storedValue: StoredValue { .integer(Int64(self)) }
    /// Reads any integer column, or a whole floating-point or decimal value, that fits in 16 bits.
    public init(storedValue: StoredValue) throws(AttributeError) {
        guard let whole = storedValue.wholeNumber, let value = Int16(exactly: whole) else { throw storedValue.badInput }
        self = value
    }
}

extension Int32: PrimitiveAttribute, SupportedAttributeType {
    public var storedValue: StoredValue { .integer(Int64(self)) }
    /// Reads any integer column, or a whole floating-point or decimal value, that fits in 32 bits.
    public init(storedValue: StoredValue) throws(AttributeError) {
        guard let whole = storedValue.wholeNumber, let value = Int32(exactly: whole) else { throw storedValue.badInput }
        self = value
    }
}

extension Int64: PrimitiveAttribute, SupportedAttributeType {
    public var storedValue: StoredValue { .integer(self) }
    /// Reads any integer column, or a whole floating-point or decimal value, that fits in 64 bits.
    public init(storedValue: StoredValue) throws(AttributeError) {
        guard let whole = storedValue.wholeNumber else { throw storedValue.badInput }
        self = whole
    }
}

extension Float: PrimitiveAttribute, SupportedAttributeType {
    /// Stored as the `Double` equal to the `Float`, as Float columns hold it.
    public var storedValue: StoredValue { .double(Double(self)) }
    /// Reads Float storage exactly (it holds a `Float` widened to `Double`); a Double, integer or
    /// decimal value becomes the nearest `Float` when it is within `Float`'s range.
    public init(storedValue: StoredValue) throws(AttributeError) {
        guard let double = storedValue.floatingPoint else { throw storedValue.badInput }
        let value = Float(double)
        guard value.isFinite || !double.isFinite else { throw storedValue.badInput }
        self = value
    }
}

extension Double: PrimitiveAttribute, SupportedAttributeType {
    public var storedValue: StoredValue { .double(self) }
    /// Reads a floating-point, integer or decimal value.
    public init(storedValue: StoredValue) throws(AttributeError) {
        guard let value = storedValue.floatingPoint else { throw storedValue.badInput }
        self = value
    }
}

extension Decimal: PrimitiveAttribute, SupportedAttributeType {
    public var storedValue: StoredValue { .decimal(self) }
    /// Reads a decimal column exactly; an integer exactly; a floating-point value through its shortest
    /// text (`0.1` stays `0.1`).
    public init(storedValue: StoredValue) throws(AttributeError) {
        switch storedValue {
        case .decimal(let value): self = value
        case .integer(let value): self = Decimal(value)
        case .double(let value) where value.isFinite:
            guard let decimal = Decimal(string: String(value), locale: Locale(identifier: "en_US_POSIX")) else {
                throw storedValue.badInput
            }
            self = decimal
        default: throw storedValue.badInput
        }
    }
}

extension Date: PrimitiveAttribute, SupportedAttributeType {
    public var storedValue: StoredValue { .date(self) }
    /// Reads a date.
    public init(storedValue: StoredValue) throws(AttributeError) {
        guard case .date(let seconds) = storedValue else { throw storedValue.badInput }
        self = Date(timeIntervalSinceReferenceDate: seconds)
    }
}

extension String: PrimitiveAttribute, SupportedAttributeType {
    public var storedValue: StoredValue { .string(self) }
    /// Reads a string.
    public init(storedValue: StoredValue) throws(AttributeError) {
        guard case .string(let value) = storedValue else { throw storedValue.badInput }
        self = value
    }
}

extension Data: PrimitiveAttribute, SupportedAttributeType {
    public var storedValue: StoredValue { .data(self) }
    /// Reads binary data.
    public init(storedValue: StoredValue) throws(AttributeError) {
        guard case .data(let value) = storedValue else { throw storedValue.badInput }
        self = value
    }
}

extension UUID: PrimitiveAttribute, SupportedAttributeType {
    public var storedValue: StoredValue { .uuid(self) }
    /// Reads a UUID.
    public init(storedValue: StoredValue) throws(AttributeError) {
        guard case .uuid(let value) = storedValue else { throw storedValue.badInput }
        self = value
    }
}

extension URL: PrimitiveAttribute, SupportedAttributeType {
    public var storedValue: StoredValue { .uri(self) }
    /// Reads a URI.
    public init(storedValue: StoredValue) throws(AttributeError) {
        guard case .uri(let value) = storedValue else { throw storedValue.badInput }
        self = value
    }
}

extension SupportedAttributeType where Self: PrimitiveAttribute, PrimitiveAttributeType == Self {
    /// The value itself.
    public func encodePrimitiveValue() -> Self { self }
    /// The primitive itself.
    public static func decode(primitiveValue: Self) throws -> Self { primitiveValue }
}
