import CDQIPredicate

/// Both predicates hold.
public func && (lhs: PredicateNode, rhs: PredicateNode) -> PredicateNode { .and([lhs, rhs]) }

/// Either predicate holds.
public func || (lhs: PredicateNode, rhs: PredicateNode) -> PredicateNode { .or([lhs, rhs]) }

/// The predicate does not hold.
public prefix func ! (predicate: PredicateNode) -> PredicateNode { .not(predicate) }

/// The predicate does not hold: `not($0.salary > 5)` is `NOT salary > 5`.
public func not(_ predicate: PredicateNode) -> PredicateNode { .not(predicate) }
