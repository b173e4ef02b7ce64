/// `RawRepresentable` types whose raw value is an attribute type are attribute types: declare the
/// conformance and nothing else.
/// ```swift
/// enum Genre: Int { case novel, poetry }
/// extension Genre: SupportedAttributeType {}
/// ```
extension SupportedAttributeType where Self: RawRepresentable, RawValue: SupportedAttributeType {
    /// The raw value's primitive.
    public func encodePrimitiveValue() -> RawValue.PrimitiveAttributeType {
        rawValue.encodePrimitiveValue()
    }

    /// The case whose raw value the primitive stands for.
    /// - Throws: ``AttributeError/badInput(_:)`` with the stored raw value when no case has it.
    public static func decode(primitiveValue: RawValue.PrimitiveAttributeType) throws -> Self {
        let rawValue = try RawValue.decode(primitiveValue: primitiveValue)
        guard let value = Self(rawValue: rawValue) else {
            throw primitiveValue.storedValue.badInput
        }
        return value
    }
}
