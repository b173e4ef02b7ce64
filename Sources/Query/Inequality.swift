import CDQIPredicate

/// A comparison other than equality, for a value of a dictionary condition:
/// `where([.quantity: lt(1)])` is `quantity < 1`.
///
/// A query with an inequality cannot be used with ``Query/firstOrInsert()`` (``QueryError/tooComplex``):
/// many values match it.
public enum Inequality {
    /// `key < value`
    case lessThan(Any)
    /// `key <= value`
    case lessThanOrEqual(Any)
    /// `key > value` (not in upstream's 1.1.0)
    case greaterThan(Any)
    /// `key >= value` (not in upstream's 1.1.0)
    case greaterThanOrEqual(Any)
    /// `key != value` (not in upstream's 1.1.0)
    case notEqual(Any)

    /// The operator and the value.
    var comparison: (op: ComparisonOperator, value: Any) {
        switch self {
        case .lessThan(let value): return (.lessThan, value)
        case .lessThanOrEqual(let value): return (.lessThanOrEqual, value)
        case .greaterThan(let value): return (.greaterThan, value)
        case .greaterThanOrEqual(let value): return (.greaterThanOrEqual, value)
        case .notEqual(let value): return (.notEqualTo, value)
        }
    }
}

/// `key < value` in a dictionary condition: `where([.quantity: lt(1)])`.
public func lt(_ value: Any) -> Inequality { .lessThan(value) }

/// `key <= value` in a dictionary condition: `where([.quantity: lte(1)])`.
public func lte(_ value: Any) -> Inequality { .lessThanOrEqual(value) }

/// `key > value` in a dictionary condition: `where([.quantity: gt(1)])`.
public func gt(_ value: Any) -> Inequality { .greaterThan(value) }

/// `key >= value` in a dictionary condition: `where([.quantity: gte(1)])`.
public func gte(_ value: Any) -> Inequality { .greaterThanOrEqual(value) }

/// `key != value` in a dictionary condition: `where([.quantity: ne(1)])`.
public func ne(_ value: Any) -> Inequality { .notEqual(value) }
