import CDQIPredicate

/// Turns the aggregates of a proxy predicate into aggregates over a group's rows, for HAVING.
///
/// Proxy operators spell an aggregate as a key path with a KVC collection operator (`salary.@max`,
/// `employees.@avg.salary`), which is what a filter needs. In HAVING the same aggregate means the
/// function over the rows of each group: `max:(salary)`, `average:(employees.salary)`.
enum GroupAggregateRewriter {
    static func rewrite(_ predicate: PredicateNode) -> PredicateNode {
        switch predicate.kind {
        case .constant: return predicate
        case .and(let parts): return .and(parts.map(rewrite))
        case .or(let parts): return .or(parts.map(rewrite))
        case .not(let inner): return .not(rewrite(inner))
        case .comparison(var comparison):
            comparison.lhs = rewrite(comparison.lhs)
            comparison.rhs = rewrite(comparison.rhs)
            return PredicateNode(kind: .comparison(comparison))
        }
    }

    static func rewrite(_ expression: ExpressionNode) -> ExpressionNode {
        switch expression.kind {
        case .keyPath(.none, let components):
            guard let index = components.firstIndex(where: { if case .collectionOperator = $0 { true } else { false } }),
                case .collectionOperator(let op) = components[index], let function = function(for: op)
            else { return expression }
            var keys = components
            keys.remove(at: index)
            return .function(function, [.keyPath(keys)])
        case .function(let function, let arguments):
            return .function(function, arguments.map(rewrite))
        default:
            return expression
        }
    }

    private static func function(for op: CollectionOperator) -> BuiltinFunction? {
        switch op {
        case .count: .count
        case .sum: .sum
        case .avg: .average
        case .min: .min
        case .max: .max
        default: nil
        }
    }
}
