/// Entry points for fuzzers (libFuzzer): they must never crash, whatever the bytes.
public enum PredicateFuzzing {
    /// Parses `bytes` (lossily decoded as UTF-8) as a predicate with a few arguments; when it parses,
    /// prints it, re-parses the printed form and evaluates it on a small dictionary. Returns whether the
    /// input parsed. Errors are expected and swallowed; a trap is a bug.
    @discardableResult
    public static func parse(bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        let arguments: [Any?] = ["name", 42, 2.5, ["a", "b"], nil]
        guard let predicate = try? PredicateNode(format: text, argumentArray: arguments) else {
            _ = try? ExpressionNode(format: text, argumentArray: arguments)
            return false
        }
        let printed = predicate.predicateFormat
        _ = try? PredicateNode(format: printed)
        let object: [String: Any] = ["name": "Alice", "age": 34, "tags": ["swift", "sql"], "ratio": 0.5]
        _ = try? predicate.evaluate(with: object, variables: ["x": .scalar(.integer(1))])
        return true
    }
}
