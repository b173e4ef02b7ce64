/// `NOT (<predicate>)`.
struct NotPredicate: Predicate {
    let original: any Predicate

    var predicateDescriptor: PredicateDescriptor {
        let original = original.predicateDescriptor
        return PredicateDescriptor(query: "NOT (\(original.query))", args: original.args, problem: original.problem)
    }
}
