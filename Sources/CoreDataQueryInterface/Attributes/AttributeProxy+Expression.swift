import CDQIPredicate
import CDQIStore

extension AttributeProxy: ExpressionConvertible {
    /// The key path of this proxy as an expression: `SELF` for the root of a query, a key path
    /// (`department.name`), or a key path on a subquery variable (`$x.salary`) when the root was
    /// created with a key that starts with `$`.
    public var cdqiExpression: ExpressionNode {
        // Built from the UTF-8 bytes: this runs for every comparison a filter makes.
        let path = cdqiKeyPath.utf8
        // The common case, one plain key, needs no splitting.
        if let first = path.first, first != UInt8(ascii: "$"), !path.contains(UInt8(ascii: ".")) {
            return ExpressionNode(kind: .keyPath(base: nil, components: [.key(cdqiKeyPath)]))
        }
        var components: [KeyPathComponent] = []
        var base: ExpressionNode?
        for part in path.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: true) {
            if components.isEmpty, base == nil, part.first == UInt8(ascii: "$"), part.count > 1 {
                base = .variable(String(Substring(part.dropFirst())))
            } else {
                components.append(.key(String(Substring(part))))
            }
        }
        guard !components.isEmpty else { return base ?? .evaluatedObject }
        return ExpressionNode(kind: .keyPath(base: base, components: components))
    }
}

extension EntityAttribute: TypedExpression {
    /// Entity proxies compare with managed objects and object IDs.
    public typealias CDQIComparisonType = ManagedObject
}

extension ScalarAttribute: TypedExpression where Value: TypedExpressionConvertible {
    /// An attribute compares as its value type does (`NSNumber` for every number).
    public typealias CDQIComparisonType = Value.CDQIComparisonType
}
