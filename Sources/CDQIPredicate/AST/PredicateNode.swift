/// A predicate: `TRUEPREDICATE`, `FALSEPREDICATE`, a comparison, or `AND`/`OR`/`NOT` of predicates.
///
/// Predicates are immutable values; equal structure means equal predicates, so they can be compared
/// and cached. Create them from a format string with ``init(format:_:)`` or build them directly.
public struct PredicateNode: Sendable, Hashable {
    /// The shape of a predicate.
    public indirect enum Kind: Sendable, Hashable {
        /// `TRUEPREDICATE` or `FALSEPREDICATE`.
        case constant(Bool)
        /// A comparison of two expressions.
        case comparison(Comparison)
        /// All subpredicates hold (true when empty).
        case and([PredicateNode])
        /// Some subpredicate holds (false when empty).
        case or([PredicateNode])
        /// The subpredicate does not hold.
        case not(PredicateNode)
    }

    /// A comparison: `[modifier] lhs op[options] rhs`.
    public struct Comparison: Sendable, Hashable {
        /// `ANY`/`ALL` or none (`NONE` is `NOT` of an `ANY` comparison).
        public var modifier: ComparisonModifier
        /// The left operand.
        public var lhs: ExpressionNode
        /// The operator.
        public var op: ComparisonOperator
        /// The string options `[cdnl]`.
        public var options: ComparisonOptions
        /// The right operand.
        public var rhs: ExpressionNode

        /// Creates a comparison.
        public init(
            _ modifier: ComparisonModifier = .direct, _ lhs: ExpressionNode, _ op: ComparisonOperator,
            options: ComparisonOptions = [], _ rhs: ExpressionNode
        ) {
            self.modifier = modifier
            self.lhs = lhs
            self.op = op
            self.options = options
            self.rhs = rhs
        }
    }

    /// The shape of this predicate.
    public let kind: Kind

    /// Wraps a shape.
    public init(kind: Kind) { self.kind = kind }

    /// `TRUEPREDICATE`.
    public static let truePredicate = PredicateNode(kind: .constant(true))
    /// `FALSEPREDICATE`.
    public static let falsePredicate = PredicateNode(kind: .constant(false))

    /// A comparison predicate.
    public static func comparison(
        _ lhs: ExpressionNode, _ op: ComparisonOperator, _ rhs: ExpressionNode,
        modifier: ComparisonModifier = .direct,
        options: ComparisonOptions = []
    ) -> PredicateNode {
        PredicateNode(kind: .comparison(Comparison(modifier, lhs, op, options: options, rhs)))
    }

    /// An `AND` of the subpredicates.
    public static func and(_ subpredicates: [PredicateNode]) -> PredicateNode { PredicateNode(kind: .and(subpredicates)) }
    /// An `OR` of the subpredicates.
    public static func or(_ subpredicates: [PredicateNode]) -> PredicateNode { PredicateNode(kind: .or(subpredicates)) }
    /// The negation of a predicate.
    public static func not(_ predicate: PredicateNode) -> PredicateNode { PredicateNode(kind: .not(predicate)) }
}

extension PredicateNode: CustomStringConvertible {
    /// The format-string form (§5); same as ``predicateFormat``.
    public var description: String { predicateFormat }
}
