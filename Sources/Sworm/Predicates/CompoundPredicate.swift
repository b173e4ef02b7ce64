/// `(<left>) AND (<right>)` or `(<left>) OR (<right>)`, arguments left then right.
struct CompoundPredicate: Predicate {
    /// The connectives.
    enum Operator: String {
        case and = "AND"
        case or = "OR"
    }

    let left: any Predicate
    let right: any Predicate
    let `operator`: Operator

    var predicateDescriptor: PredicateDescriptor {
        let left = left.predicateDescriptor
        let right = right.predicateDescriptor
        return PredicateDescriptor(
            query: "(\(left.query)) \(`operator`.rawValue) (\(right.query))",
            args: left.args + right.args,
            problem: left.problem ?? right.problem)
    }
}
