import CDQIPredicate

/// The OR of its filters, in the order added; `FALSEPREDICATE` when empty.
open class CDFilterDisjunction: CDFilterJunction {
    open override func tryCreatePredicate() throws(PersistenceError) -> PredicateNode {
        let members = try memberPredicates()
        if members.isEmpty { return .falsePredicate }
        return members.count == 1 ? members[0] : .or(members)
    }
}
