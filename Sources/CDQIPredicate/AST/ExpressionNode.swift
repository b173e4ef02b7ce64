/// An expression of the predicate language: a constant, a key path, `SELF`, a variable, an aggregate,
/// a function, a subquery, … (§2.6).
///
/// Expressions are immutable values; they compare equal when they have the same structure, so they can
/// be cached. Build them with the static constructors, which apply the normalisations the parser applies
/// (for example `keyPath(keyPath(x, [a]), [b])` is `keyPath(x, [a, b])`).
public struct ExpressionNode: Sendable, Hashable {
    /// The shape of an expression.
    public indirect enum Kind: Sendable, Hashable {
        /// A constant scalar value.
        case constant(StoredValue)
        /// A collection constant that came from a `%@` argument (an array or a set); prints as `{…}`.
        case constantCollection([ExpressionNode], ordered: Bool)
        /// The evaluated object, `SELF`.
        case evaluatedObject
        /// A variable, `$name`.
        case variable(String)
        /// A key path applied to `base` (`nil`: the evaluated object).
        case keyPath(base: ExpressionNode?, components: [KeyPathComponent])
        /// A literal aggregate `{a, b}`.
        case aggregate([ExpressionNode])
        /// An index access: `e[FIRST]`, `e[LAST]`, `e[SIZE]`, `e[n]`.
        case index(ExpressionNode, IndexSelector)
        /// A built-in function (arithmetic operators are functions: `a + b` is `add:to:`).
        case function(BuiltinFunction, [ExpressionNode])
        /// `FUNCTION(target, "selector", args…)`: a method call; parses and prints, but is not evaluated.
        case methodCall(target: ExpressionNode, selector: String, arguments: [ExpressionNode])
        /// `SUBQUERY(collection, $variable, predicate)`.
        case subquery(collection: ExpressionNode, variable: String, predicate: PredicateNode)
        /// `TERNARY(predicate, a, b)`.
        case ternary(PredicateNode, ExpressionNode, ExpressionNode)
        /// `CAST(e, "Type")` of a non-constant expression (constant casts fold to constants).
        case cast(ExpressionNode, type: String)
        /// `$variable := e`.
        case assignment(variable: String, ExpressionNode)
        /// `a UNION b`, `a INTERSECT b`, `a MINUS b`.
        case setOperation(SetOperator, ExpressionNode, ExpressionNode)
    }

    /// An index selector.
    public indirect enum IndexSelector: Sendable, Hashable {
        /// `[FIRST]`, `[LAST]`, `[SIZE]`.
        case first, last, size
        /// `[n]` (array element) or `["key"]` (dictionary value).
        case at(ExpressionNode)
    }

    /// The set operators.
    public enum SetOperator: String, Sendable, Hashable {
        /// `UNION`, `INTERSECT`, `MINUS` (in-memory only).
        case union = "UNION", intersect = "INTERSECT", minus = "MINUS"
    }

    /// The shape of this expression.
    public let kind: Kind

    /// Wraps a shape as is, without normalisation.
    public init(kind: Kind) { self.kind = kind }

    // MARK: Constructors

    /// A constant. A NaN double becomes nil (§5 rule 4).
    public static func constant(_ value: StoredValue) -> ExpressionNode {
        if case .double(let d) = value, d.isNaN { return ExpressionNode(kind: .constant(.null)) }
        return ExpressionNode(kind: .constant(value))
    }

    /// The nil constant.
    public static let null = ExpressionNode(kind: .constant(.null))
    /// `SELF`.
    public static let evaluatedObject = ExpressionNode(kind: .evaluatedObject)

    /// A variable `$name`.
    public static func variable(_ name: String) -> ExpressionNode { ExpressionNode(kind: .variable(name)) }

    /// A key path from the evaluated object; dotted keys are not split (use ``keyPath(_:)`` for that).
    public static func keyPath(_ components: [KeyPathComponent], on base: ExpressionNode? = nil) -> ExpressionNode {
        var base = base
        var components = components
        if let b = base {
            switch b.kind {
            case .evaluatedObject:
                base = nil
            case .keyPath(let innerBase, let innerComponents):
                base = innerBase
                components = innerComponents + components
            default:
                break
            }
        }
        if components.isEmpty { return base ?? .evaluatedObject }
        return ExpressionNode(kind: .keyPath(base: base, components: components))
    }

    /// A key path from a dotted string: `"department.name"`, `"employees.@avg.salary"`.
    public static func keyPath(_ dotted: String) -> ExpressionNode {
        // A single key (the common case) needs no splitting.
        if !dotted.utf8.contains(UInt8(ascii: ".")) && dotted.utf8.first != UInt8(ascii: "@") {
            return ExpressionNode(kind: .keyPath(base: nil, components: [.key(dotted)]))
        }
        return keyPath(
            dotted.split(separator: ".", omittingEmptySubsequences: false).map { part in
                if part.first == "@", let op = CollectionOperator(rawValue: String(part.dropFirst())) {
                    return .collectionOperator(op)
                }
                return .key(String(part))
            })
    }

    /// A literal aggregate.
    public static func aggregate(_ elements: [ExpressionNode]) -> ExpressionNode {
        ExpressionNode(kind: .aggregate(elements))
    }

    /// A function. Unary minus of a numeric constant (booleans included) folds into the constant.
    public static func function(_ function: BuiltinFunction, _ arguments: [ExpressionNode]) -> ExpressionNode {
        if function == .negate, arguments.count == 1, case .constant(let value) = arguments[0].kind,
            let folded = negatedConstant(value)
        {
            return .constant(folded)
        }
        return ExpressionNode(kind: .function(function, arguments))
    }

    static func negatedConstant(_ value: StoredValue) -> StoredValue? {
        switch value {
        case .integer(let i):
            if i == Int64.min { return .double(-Double(i)) }
            return .integer(-i)
        case .double(let d): return .double(-d)
        case .decimal(let d): return .decimal(-d)
        case .bool(let b): return .integer(b ? -1 : 0)
        default: return nil
        }
    }

    /// An index access.
    public static func index(_ base: ExpressionNode, _ selector: IndexSelector) -> ExpressionNode {
        ExpressionNode(kind: .index(base, selector))
    }
}

extension ExpressionNode: CustomStringConvertible {
    /// The format-string form of the expression (§5).
    public var description: String { expressionFormat }
}
