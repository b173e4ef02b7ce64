/// `<attribute> CONTAINS[cd] %@` and its `BEGINSWITH`/`ENDSWITH` siblings (`[cd]` when case- and
/// diacritic-insensitive).
struct TextPredicate<PlainObject: ManagedObjectConvertible>: Predicate {
    /// The string tests.
    enum Operator: String {
        case contains = "CONTAINS"
        case beginsWith = "BEGINSWITH"
        case endsWith = "ENDSWITH"
    }

    let keyPath: AnyKeyPath
    let value: String
    let `operator`: Operator
    let caseInsensitive: Bool

    var predicateDescriptor: PredicateDescriptor {
        let options = caseInsensitive ? "[cd]" : ""
        do {
            let name = try PlainObject.attributeName(for: keyPath)
            return PredicateDescriptor(query: "\(name) \(`operator`.rawValue)\(options) %@", args: [value])
        } catch {
            return PredicateDescriptor(
                query: "\(keyPath) \(`operator`.rawValue)\(options) %@", args: [value], problem: error)
        }
    }
}
