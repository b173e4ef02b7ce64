/// A predicate's format text and its arguments, as Sworm builds them: `"(a == %@) AND (NOT (foo.bar))"`
/// with `[1]`.
public struct PredicateDescriptor {
    /// The predicate in the predicate language, one `%@` per argument.
    public let query: String
    /// The arguments, in order: the attributes' primitive values (`nil` for no value, arrays for `IN`).
    public let args: [Any]
    /// A key path the predicate names that its type does not map (the fetch throws it).
    let problem: RequestError?

    init(query: String, args: [Any], problem: RequestError? = nil) {
        self.query = query
        self.args = args
        self.problem = problem
    }
}

/// Anything that can filter a request: typed key-path comparisons (`\Book.year > 2000`), their
/// combinations (`!`, `&&`, `||`), the text tests of ``Query``, and raw strings in the predicate
/// language (`"authors.@count > 1"`), freely mixed.
///
/// Foundation declares a `Predicate` too: in a file that imports Foundation, write the protocol's
/// name as `Sworm.Predicate` (Sworm's guide never needs to: its predicates' types are inferred).
public protocol Predicate {
    /// The predicate's text and arguments.
    var predicateDescriptor: PredicateDescriptor { get }
}

/// A string is a predicate in the predicate language, with no arguments.
extension String: Predicate {
    public var predicateDescriptor: PredicateDescriptor { PredicateDescriptor(query: self, args: []) }
}
