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
