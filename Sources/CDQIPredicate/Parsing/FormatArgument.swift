import Foundation

/// A value that can stand for an expression in a format string (`%@`) or a variable binding: the
/// expression is spliced in as is.
public protocol ExpressionConvertible {
    /// The expression this value stands for.
    var expressionNode: ExpressionNode { get }
}

extension ExpressionNode: ExpressionConvertible {
    public var expressionNode: ExpressionNode { self }
}

extension StoredValue: ExpressionConvertible {
    public var expressionNode: ExpressionNode { .constant(self) }
}

extension ObjectReference: ExpressionConvertible {
    public var expressionNode: ExpressionNode { .constant(.objectID(self)) }
}

/// Converts Swift argument values to expressions (§1.7 `%@` rules).
enum FormatArgument {
    /// Unwraps `Optional` values hidden inside `Any`.
    static func unwrap(_ value: Any?) -> Any? {
        guard let value else { return nil }
        if let optional = value as? OptionalProtocol { return optional.wrappedAny.flatMap(unwrap) }
        return value
    }

    /// The expression for a `%@` argument, or `nil` when the type is not supported.
    ///
    /// Concrete types are tested first: casts to protocols, to classes (which bridge arrays to
    /// `NSArray` on Linux) and to `[Any]` are slow, so they come last.
    static func expression(for argument: Any?) -> ExpressionNode? {
        guard let value = argument else { return .null }
        if let v = value as? String { return .constant(.string(v)) }
        if let v = value as? Int { return .constant(.integer(Int64(v))) }
        if let v = value as? Double { return .constant(.double(v)) }
        if let v = value as? Bool { return .constant(.bool(v)) }
        if let v = value as? [String] {
            return ExpressionNode(kind: .constantCollection(v.map { .constant(.string($0)) }, ordered: true))
        }
        if let v = value as? [Int] {
            return ExpressionNode(kind: .constantCollection(v.map { .constant(.integer(Int64($0))) }, ordered: true))
        }
        if let v = value as? Date { return .constant(.date(v)) }
        if let v = value as? ExpressionNode { return v }
        if let v = value as? StoredValue { return .constant(v) }
        if let v = value as? Int64 { return .constant(.integer(v)) }
        if let v = value as? Float { return .constant(.double(Double(v))) }
        if let v = value as? Decimal { return .constant(.decimal(v)) }
        if let v = value as? Data { return .constant(.data(v)) }
        if let v = value as? UUID { return .constant(.uuid(v)) }
        if let v = value as? URL { return .constant(.uri(v)) }
        if let v = value as? Substring { return .constant(.string(String(v))) }
        if let v = value as? Character { return .constant(.string(String(v))) }
        if let v = value as? ObjectReference { return .constant(.objectID(v)) }
        if let optional = value as? OptionalProtocol {
            return expression(for: optional.wrappedAny)
        }
        if let v = value as? ExpressionConvertible { return v.expressionNode }
        if let v = integer(value) { return .constant(.integer(v)) }
        if value is any BinaryInteger { return nil }
        if let array = value as? [Any] {
            var elements: [ExpressionNode] = []
            elements.reserveCapacity(array.count)
            for element in array {
                guard let converted = expression(for: element) else { return nil }
                elements.append(converted)
            }
            return ExpressionNode(kind: .constantCollection(elements, ordered: true))
        }
        if let set = value as? Set<AnyHashable> {
            var elements: [ExpressionNode] = []
            for element in set {
                guard let converted = expression(for: element.base) else { return nil }
                elements.append(converted)
            }
            return ExpressionNode(kind: .constantCollection(elements, ordered: false))
        }
        if value is NSNull { return .null }
        return nil
    }

    /// An integer of any width that fits in `Int64`.
    static func integer(_ value: Any) -> Int64? {
        if let v = value as? Int { return Int64(v) }
        if let v = value as? any BinaryInteger { return Int64(exactly: v) }
        return nil
    }

    /// A floating-point or integer argument as `Double`.
    static func floating(_ value: Any) -> Double? {
        if let v = value as? Double { return v }
        if let v = value as? Float { return Double(v) }
        if let v = value as? any BinaryFloatingPoint { return Double(v) }
        if let v = value as? Decimal { return StoredValue.decimalAsDouble(v) }
        if let v = integer(value) { return Double(v) }
        return nil
    }

    /// A character argument (`%c`) as its code.
    static func characterCode(_ value: Any) -> Int64? {
        if let v = integer(value) { return v }
        if let v = value as? Unicode.Scalar { return Int64(v.value) }
        if let v = value as? Character, v.unicodeScalars.count == 1, let s = v.unicodeScalars.first { return Int64(s.value) }
        if let v = value as? String, v.unicodeScalars.count == 1, let s = v.unicodeScalars.first { return Int64(s.value) }
        return nil
    }

    /// A short description of a value's type for error messages.
    static func typeName(_ value: Any?) -> String {
        guard let value = unwrap(value) else { return "nil" }
        return String(describing: type(of: value))
    }
}

/// Lets `FormatArgument.unwrap` see through `Optional` values boxed in `Any`.
private protocol OptionalProtocol {
    var wrappedAny: Any? { get }
}

extension Optional: OptionalProtocol {
    fileprivate var wrappedAny: Any? {
        switch self {
        case .some(let wrapped): return wrapped
        case .none: return nil
        }
    }
}
