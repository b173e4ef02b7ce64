/// A call in Swift source that passes query strings: a predicate format with its arguments, or key paths.
struct QueryStringCall: Equatable {
    enum Kind: Equatable {
        /// `filter("…", args…)` or `PredicateNode(format: "…", args…)`: a predicate on the entity.
        case predicate
        /// `having("…", args…)`: a predicate on grouped results (syntax only).
        case having
        /// `order("a", "b")`, `select("a")`, `groupBy("a")`: key paths of the entity.
        case keyPaths(method: String)
    }

    /// A string argument and where its literal starts.
    struct StringArgument: Equatable {
        var value: String
        var line: Int
        var column: Int
        /// Whether the literal spans lines (offsets into it cannot be turned into columns).
        var isMultiline: Bool
    }

    /// A format argument as far as the source tells it: a literal, or something known only at run time.
    enum Argument: Equatable {
        case string(String)
        case integer(Int64)
        case double(Double)
        case bool(Bool)
        case null
        case unknown
    }

    var kind: Kind
    /// The format string (predicates) or the key paths (key-path calls).
    var strings: [StringArgument]
    /// For predicates: the arguments after the format.
    var arguments: [Argument]
    /// The entity's class or entity name, when the call's receiver shows it (`from(Employee.self)`,
    /// `Query<Employee, …>`, `FetchRequest(entityName: "Employee", …)`).
    var entity: String?
}
