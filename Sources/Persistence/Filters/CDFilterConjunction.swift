import CDQIPredicate

/// The AND of its filters, in the order added; `TRUEPREDICATE` when empty.
open class CDFilterConjunction: CDFilterJunction {
    open override func tryCreatePredicate() throws(PersistenceError) -> PredicateNode {
        let members = try memberPredicates()
        if members.isEmpty { return .truePredicate }
        return members.count == 1 ? members[0] : .and(members)
    }
}
