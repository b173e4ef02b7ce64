import CDQIPredicate

// Quantifiers over to-many paths: `any($0.languages.name == "Swift")` is
// `ANY languages.name == "Swift"`. The modifier is applied to every comparison inside the predicate
// (through AND, OR and NOT), so `any(a && b)` is `ANY a AND ANY b`: each comparison is quantified on
// its own, as in NSPredicate, and a NOT stays outside (`any(!p)` is `NOT ANY p`, the same as
// `none(p)`; for "some related value differs" write `any($0.x != v)`). To require one related object
// to satisfy several conditions at once, use a subquery
// (`subquery($0.employees) { $0.salary > 1 && $0.nickName == nil }.cdqiCount() > 0`).

extension PredicateNode {
    /// The predicate with `modifier` on every comparison.
    func cdqiQuantified(_ modifier: ComparisonModifier) -> PredicateNode {
        switch kind {
        case .constant:
            return self
        case .comparison(var comparison):
            comparison.modifier = modifier
            return PredicateNode(kind: .comparison(comparison))
        case .and(let items):
            return .and(items.map { $0.cdqiQuantified(modifier) })
        case .or(let items):
            return .or(items.map { $0.cdqiQuantified(modifier) })
        case .not(let inner):
            return .not(inner.cdqiQuantified(modifier))
        }
    }
}

/// `ANY predicate`: some related object satisfies the comparison. Every comparison inside is
/// quantified on its own (`any(a && b)` is `ANY a AND ANY b`); a NOT stays outside (`any(!p)` is
/// `NOT ANY p`).
public func any(_ predicate: PredicateNode) -> PredicateNode { predicate.cdqiQuantified(.any) }

/// `SOME predicate`, the same as ``any(_:)``.
public func some(_ predicate: PredicateNode) -> PredicateNode { predicate.cdqiQuantified(.any) }

/// `ALL predicate`: every related object satisfies the comparison (true when there are none).
public func all(_ predicate: PredicateNode) -> PredicateNode { predicate.cdqiQuantified(.all) }

/// `NONE predicate` (`NOT ANY predicate`): no related object satisfies the comparison.
public func none(_ predicate: PredicateNode) -> PredicateNode { .not(predicate.cdqiQuantified(.any)) }

// The quantifiers and NOT as methods on a predicate, CDQI's `cdqi…` twins of the functions:
// `(project.languages.name == "Swift").cdqiAny()` is `any(project.languages.name == "Swift")`.
extension PredicateNode {
    /// ``any(_:)`` of this predicate: `ANY`.
    public func cdqiAny() -> PredicateNode { any(self) }

    /// ``some(_:)`` of this predicate: `SOME`, the same as `ANY`.
    public func cdqiSome() -> PredicateNode { some(self) }

    /// ``all(_:)`` of this predicate: `ALL`.
    public func cdqiAll() -> PredicateNode { all(self) }

    /// ``none(_:)`` of this predicate: `NONE` (`NOT ANY`).
    public func cdqiNone() -> PredicateNode { none(self) }

    /// ``not(_:)`` of this predicate: `NOT`.
    public func cdqiNot() -> PredicateNode { .not(self) }
}
