import CDQIPredicate
import CDQIStore

extension Query {
    /// Adds a condition written as a predicate format string, combined with the earlier ones by AND.
    ///
    /// ```swift
    /// query.where("quantity == %d", 1).where("name == %@", "Alice")
    /// ```
    ///
    /// `firstOrInsert()` cannot be used on the result (``QueryError/tooComplex``): the values are
    /// not read back from the string. A malformed string is reported by the call that runs the query
    /// (``QueryError/invalidPredicate(_:)``).
    public func `where`(_ format: String, _ args: Any...) -> Query<T> {
        adding { query throws(QueryError) in
            query.clauses.append(try Self.parse(format, args))
            query.defaultValues = nil
        }
    }

    /// Combines everything before it with a condition by OR: `where(A).where(B).or(C)` is
    /// `(A AND B) OR C`.
    ///
    /// ```swift
    /// query.where("quantity == 1").or("name == %@", "Alice")
    /// ```
    ///
    /// An `or` with no condition before it is reported by the call that runs the query
    /// (``QueryError/orWithoutWhere``).
    public func or(_ format: String, _ args: Any...) -> Query<T> {
        adding { query throws(QueryError) in try query.combineByOr(try Self.parse(format, args)) }
    }

    /// The form of ``or(_:_:)`` upstream's code declares, with the arguments labeled `args:`.
    ///
    /// ```swift
    /// query.where("quantity == 1").or("name == %@", args: "Alice")
    /// ```
    @_disfavoredOverload
    public func or(_ format: String, args: Any...) -> Query<T> {
        adding { query throws(QueryError) in try query.combineByOr(try Self.parse(format, args)) }
    }

    /// Replaces the conditions by `(all of them) OR condition`.
    mutating func combineByOr(_ condition: PredicateNode) throws(QueryError) {
        guard !clauses.isEmpty else { throw .orWithoutWhere }
        let earlier = predicate
        if case .or(let alternatives) = earlier.kind {
            clauses = [.or(alternatives + [condition])]
        } else {
            clauses = [.or([earlier, condition])]
        }
        defaultValues = nil
    }

    static func parse(_ format: String, _ args: [Any]) throws(QueryError) -> PredicateNode {
        do {
            return try PredicateNode(format: format, argumentArray: args)
        } catch {
            throw .invalidPredicate(error)
        }
    }
}
