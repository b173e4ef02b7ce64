/// `<attribute> <operator> %@`: an attribute compared with a primitive value (or, for `IN`, a list).
struct ComparisonPredicate<PlainObject: ManagedObjectConvertible>: Predicate {
    /// The comparisons Sworm's operators make.
    enum Operator: String {
        case equalTo = "=="
        case notEqualTo = "!="
        case lessThan = "<"
        case lessThanOrEqualTo = "<="
        case greaterThan = ">"
        case greaterThanOrEqualTo = ">="
        case `in` = "IN"
    }

    let keyPath: AnyKeyPath
    /// The primitive value (`nil` for none; an array of primitives for `IN`).
    let value: Any?
    let `operator`: Operator

    var predicateDescriptor: PredicateDescriptor {
        do {
            let name = try PlainObject.attributeName(for: keyPath)
            return PredicateDescriptor(query: "\(name) \(`operator`.rawValue) %@", args: [value as Any])
        } catch {
            return PredicateDescriptor(query: "\(keyPath) \(`operator`.rawValue) %@", args: [value as Any], problem: error)
        }
    }
}
