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
    public func `where`(_ dictionary: [T.Attribute: Any]) -> Query<T> {
        adding { query throws(QueryError) in
            let (condition, values) = try Self.condition(dictionary, keys: &query.namedKeys)
            query.clauses.append(condition)
            if let values {
                query.defaultValues?.merge(values) { _, new in new }
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
    static func condition(_ dictionary: [T.Attribute: Any], keys: inout [String])
        throws(QueryError) -> (PredicateNode, [String: Any]?)
    {
        var entries: [(key: String, value: Any)] = dictionary.map { (String(describing: $0.key), $0.value) }
        if entries.count > 1 { entries.sort { $0.key < $1.key } }
        var comparisons: [PredicateNode] = []
        comparisons.reserveCapacity(entries.count)
        var values: [String: Any]? = [:]
        for (key, value) in entries {
            keys.append(key)
            do {
                if let inequality = value as? Inequality {
                    let (format, operand) = inequality.formatAndValue
                    comparisons.append(try PredicateNode(format: format, argumentArray: [key, operand]))
                    values = nil
                } else if let range = value as? RangeCondition {
                    comparisons.append(try range.predicate(forKey: key))
                    values = nil
                } else {
                    comparisons.append(try PredicateNode(format: "%K == %@", argumentArray: [key, value]))
                    values?[key] = value
                }
            } catch {
                throw .invalidPredicate(error)
            }
        }
        switch comparisons.count {
        case 0: return (.truePredicate, values)
        case 1: return (comparisons[0], values)
        default: return (.and(comparisons), values)
        }
    }
}
