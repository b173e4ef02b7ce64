import CDQIPredicate

/// Where a statement's parameters are bound, by position from 1: a prepared SQLite statement, or the
/// parameter list of a PostgreSQL statement.
@usableFromInline package protocol StoreParameters {
    mutating func bind(_ value: StoredValue, at position: Int) throws
}

/// A list of parameter values bound by position (1 is the first).
package struct StoredValueParameters: StoreParameters {
    package var values: [StoredValue] = []

    package init() {}

    package mutating func bind(_ value: StoredValue, at position: Int) throws {
        guard position >= 1 else { return }
        while values.count < position { values.append(.null) }
        values[position - 1] = value
    }
}
