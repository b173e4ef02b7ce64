/// A stored value that does not fit the attribute it is read into.
public enum AttributeError: Error, CustomStringConvertible {
    /// A value the type cannot be made from: the stored value (or a custom type's primitive, or an
    /// enumeration's raw value), `nil` for a missing value of a non-optional attribute.
    case badInput((any Sendable)?)
    /// An attribute could not be decoded: which one, of which entity, and why.
    case badAttribute(Context)

    /// Where decoding failed.
    public struct Context: Sendable, CustomStringConvertible {
        /// The attribute's name in the model.
        public let name: String
        /// The entity's name.
        public let entity: String
        /// What went wrong (usually ``AttributeError/badInput(_:)`` with the value).
        public let originalError: any Error

        /// Creates a context.
        public init(name: String, entity: String, originalError: any Error) {
            self.name = name
            self.entity = entity
            self.originalError = originalError
        }

        public var description: String { "attribute '\(name)' of entity '\(entity)': \(originalError)" }
    }

    public var description: String {
        switch self {
        case .badInput(let value?): "bad input: \(String(reflecting: value))"
        case .badInput(nil): "bad input: nil (a required value is missing)"
        case .badAttribute(let context): "cannot decode \(context)"
        }
    }
}
