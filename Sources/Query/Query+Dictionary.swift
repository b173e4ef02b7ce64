import CDQIPredicate
import CDQIStore

extension Query where T: Queryable {
    /// Adds conditions keyed by attribute, all of which must hold, combined with the earlier
    /// conditions by AND.
    ///
    /// A plain value means equality; ``lt(_:)``, ``lte(_:)``, ``gt(_:)``, ``gte(_:)`` and ``ne(_:)`` wrap
    /// a value in an inequality; a range of any `Comparable` bound means the attribute lies in it
    /// (`1...3` is `BETWEEN {1, 3}`).
    ///
    /// ```swift
    /// query.where([.quantity: 1, .name: "Alice"])
    /// query.where([.quantity: lt(1)])
    /// query.where([.quantity: 1...3])
    /// ```
    ///
    /// With plain values only, ``firstOrInsert()`` can insert an object with these values.
    @inlinable public func `where`(_ dictionary: [T.Attribute: Any]) -> Query<T> {
        adding { query throws(QueryError) in
            let (condition, values) = try Self.condition(dictionary, keys: &query.namedKeys)
            query.clauses.append(condition)
            if let values {
                if query.defaultValues?.isEmpty == true {
                    query.defaultValues = values
                } else {
                    query.defaultValues?.merge(values) { _, new in new }
                }
            } else {
                query.defaultValues = nil
            }
        }
    }

    /// Combines everything before it with conditions keyed by attribute (all of which must hold), by
    /// OR: `where([.quantity: 1]).or([.name: "Bob"])` is `quantity == 1 OR name == "Bob"`.
    public func or(_ dictionary: [T.Attribute: Any]) -> Query<T> {
        adding { query throws(QueryError) in
            let (condition, _) = try Self.condition(dictionary, keys: &query.namedKeys)
            try query.combineByOr(condition)
        }
    }

    /// The AND of one comparison per entry (in key order, so the predicate is the same every run) and,
    /// when every value is plain, the values by key.
    @inlinable static func condition(
        _ dictionary: [T.Attribute: Any], keys: inout [String]
    )
        throws(QueryError) -> (PredicateNode, [String: Any]?)
    {
        // One entry (the common case) needs no sorting and no AND.
        if dictionary.count == 1, let (attribute, value) = dictionary.first {
            let key = AttributeName.of(attribute)
            keys.append(key)
            let (comparison, isPlain) = try comparison(key, value)
            return (comparison, isPlain ? [key: value] : nil)
        }
        var entries: [(key: String, value: Any)] = dictionary.map { (AttributeName.of($0.key), $0.value) }
        entries.sort { $0.key < $1.key }
        var comparisons: [PredicateNode] = []
        comparisons.reserveCapacity(entries.count)
        var values: [String: Any]? = [:]
        for (key, value) in entries {
            keys.append(key)
            let (comparison, isPlain) = try comparison(key, value)
            comparisons.append(comparison)
            if isPlain { values?[key] = value } else { values = nil }
        }
        return (comparisons.isEmpty ? .truePredicate : .and(comparisons), values)
    }

    /// The comparison of one entry, and whether its value is plain (an equality).
    @usableFromInline static func comparison(_ key: String, _ value: Any) throws(QueryError) -> (PredicateNode, isPlain: Bool) {
        do {
            // Plain values of the common types first: no protocol cast for them.
            if let constant = ConditionValue.commonConstant(value) {
                return (.comparison(.keyPath(key), .equalTo, constant), true)
            }
            if let inequality = value as? Inequality {
                let (op, operand) = inequality.comparison
                return (try ConditionValue.comparison(key, op, operand), false)
            }
            if let range = value as? RangeCondition {
                return (try range.predicate(forKey: key), false)
            }
            return (try ConditionValue.comparison(key, .equalTo, value), true)
        } catch {
            throw .invalidPredicate(error)
        }
    }
}
