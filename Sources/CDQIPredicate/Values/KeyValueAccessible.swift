/// An object whose properties a predicate can read by key: the key-value protocol of the in-memory
/// evaluator. Dictionaries conform; managed objects and plain test types conform by implementing
/// ``predicateValue(forKey:)``.
///
/// To-many relationships are returned as ``PredicateValue/toMany(_:)``, to-one relationships as
/// ``PredicateValue/object(_:)``, attributes as ``PredicateValue/scalar(_:)`` (or arrays for
/// array-valued attributes).
public protocol KeyValueAccessible {
    /// The value for `key`, or ``PredicateEvaluationError/unknownKey(key:keyPath:)`` when the object has
    /// no such key. A key that exists but holds no value returns `.scalar(.null)`.
    func predicateValue(forKey key: String) throws(PredicateEvaluationError) -> PredicateValue

    /// The object's identity for `==` between objects and with object-ID constants (`department == %@`);
    /// `nil` when the object has none (then only the same class instance is equal).
    var predicateObjectID: ObjectReference? { get }
}

extension KeyValueAccessible {
    public var predicateObjectID: ObjectReference? { nil }
}

extension Dictionary: KeyValueAccessible where Key == String {
    /// A missing key reads as nil, as KVC on a dictionary does.
    public func predicateValue(forKey key: String) throws(PredicateEvaluationError) -> PredicateValue {
        guard let value = self[key] else { return .null }
        guard let converted = PredicateValue(converting: value) else {
            throw .unsupportedValue(key: key, typeName: String(describing: type(of: value as Any)))
        }
        return converted
    }
}
