import CDQIPredicate

/// One of the value types the store holds (Bool, Int, Int16, Int32, Int64, Float, Double, Decimal,
/// Date, String, Data, UUID, URL).
///
/// Conversions go through the store's ``StoredValue``. Reading is explicit (there is no `NSNumber`
/// bridging on Linux): an `Int` reads from any integer column (Integer 16, 32 or 64) and from a
/// floating-point or decimal value that is a whole number in range; a `Float` from Float (or Double)
/// storage; a `Decimal` exactly from a decimal column. A value that does not fit throws
/// ``AttributeError/badInput(_:)``. Only the 13 types above conform; conform your own types to
/// ``SupportedAttributeType`` instead, with one of them as their primitive.
public protocol PrimitiveAttribute {
    /// The value as the store holds it.
    var storedValue: StoredValue { get }
    /// Reads a value the store holds.
    /// - Throws: ``AttributeError/badInput(_:)`` with the stored value when it does not fit the type.
    init(storedValue: StoredValue) throws(AttributeError)
}

/// A type that can be an attribute: it converts to and from one of the store's primitive types.
///
/// ```swift
/// extension Point: SupportedAttributeType {
///     func encodePrimitiveValue() -> String { "\(x),\(y)" }
///     static func decode(primitiveValue: String) throws -> Point {
///         guard let point = Point(primitiveValue) else { throw AttributeError.badInput(primitiveValue) }
///         return point
///     }
/// }
/// ```
/// The primitive types conform to it themselves (with no conversion), and `RawRepresentable` types
/// whose raw value is supported get it for free (`extension Genre: SupportedAttributeType {}`).
public protocol SupportedAttributeType {
    /// The primitive type the value is stored as.
    associatedtype PrimitiveAttributeType: PrimitiveAttribute
    /// The value as its primitive.
    func encodePrimitiveValue() -> PrimitiveAttributeType
    /// The value a primitive stands for.
    /// - Throws: ``AttributeError/badInput(_:)`` (or any error) when the primitive is not a valid value.
    static func decode(primitiveValue: PrimitiveAttributeType) throws -> Self
}

extension SupportedAttributeType {
    /// The value as the store holds it.
    @inlinable
    var storedPrimitive: StoredValue { encodePrimitiveValue().storedValue }

    /// The value a stored value stands for: the primitive read from the store, then decoded.
    @inlinable
    static func decode(stored: StoredValue) throws -> Self {
        try decode(primitiveValue: try PrimitiveAttributeType(storedValue: stored))
    }
}
