import CDQIPredicate
import Foundation

// Short builders mirroring the AST notation of predicate-language.md §6.1, so expected trees in the
// tests read like the reference tables.

func key(_ dotted: String) -> ExpressionNode { .keyPath(dotted) }
func key(_ base: ExpressionNode, _ dotted: String) -> ExpressionNode {
    ExpressionNode(
        kind: .keyPath(
            base: base,
            components: dotted.split(separator: ".").map { part in
                part.hasPrefix("@") ? .collectionOperator(CollectionOperator(rawValue: String(part.dropFirst()))!) : .key(String(part))
            }))
}
func int(_ i: Int64) -> ExpressionNode { .constant(.integer(i)) }
func dbl(_ d: Double) -> ExpressionNode { .constant(.double(d)) }
func str(_ s: String) -> ExpressionNode { .constant(.string(s)) }
func bool(_ b: Bool) -> ExpressionNode { .constant(.bool(b)) }
func date(_ seconds: Double) -> ExpressionNode { .constant(.date(secondsSinceReferenceDate: seconds)) }
let nilConstant = ExpressionNode.null
let selfExpr = ExpressionNode.evaluatedObject
func variable(_ name: String) -> ExpressionNode { .variable(name) }
func agg(_ items: ExpressionNode...) -> ExpressionNode { .aggregate(items) }
func const(_ items: ExpressionNode...) -> ExpressionNode { ExpressionNode(kind: .constantCollection(items, ordered: true)) }
func fn(_ f: BuiltinFunction, _ args: ExpressionNode...) -> ExpressionNode { ExpressionNode(kind: .function(f, args)) }
func idx(_ base: ExpressionNode, _ selector: ExpressionNode.IndexSelector) -> ExpressionNode { .index(base, selector) }
func subq(_ collection: ExpressionNode, _ v: String, _ p: PredicateNode) -> ExpressionNode {
    ExpressionNode(kind: .subquery(collection: collection, variable: v, predicate: p))
}

func cmp(_ op: ComparisonOperator, _ options: ComparisonOptions, _ lhs: ExpressionNode, _ rhs: ExpressionNode) -> PredicateNode {
    .comparison(lhs, op, rhs, options: options)
}
func cmp(_ op: ComparisonOperator, _ lhs: ExpressionNode, _ rhs: ExpressionNode) -> PredicateNode {
    .comparison(lhs, op, rhs)
}
func anyCmp(_ op: ComparisonOperator, _ lhs: ExpressionNode, _ rhs: ExpressionNode) -> PredicateNode {
    .comparison(lhs, op, rhs, modifier: .any)
}
func allCmp(_ op: ComparisonOperator, _ lhs: ExpressionNode, _ rhs: ExpressionNode) -> PredicateNode {
    .comparison(lhs, op, rhs, modifier: .all)
}
func AND(_ items: PredicateNode...) -> PredicateNode { .and(items) }
func OR(_ items: PredicateNode...) -> PredicateNode { .or(items) }
func NOT(_ p: PredicateNode) -> PredicateNode { .not(p) }

let c: ComparisonOptions = .caseInsensitive
let cd: ComparisonOptions = [.caseInsensitive, .diacriticInsensitive]
