/// Wraps a value that takes no part in equality and hashing.
///
/// Model elements carry their ``SourceLocation`` for diagnostics; two models read from different files
/// (or built in code) are still equal when they describe the same thing.
@propertyWrapper
public struct NotCompared<Value: Sendable>: Sendable, Hashable {
    /// The wrapped value.
    public var wrappedValue: Value

    /// Wraps a value.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }

    public static func == (lhs: NotCompared, rhs: NotCompared) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}
}

extension NotCompared: Codable where Value: ExpressibleByNilLiteral {
    /// Decodes as nil: the wrapped values (source locations) describe where a model was read, which an
    /// encoded model, embedded in generated code, must not depend on.
    public init(from decoder: any Decoder) throws {
        wrappedValue = nil
    }

    /// Encodes nothing but a nil marker.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encodeNil()
    }
}
