import CDQIPredicate

/// A value bound to a `?` placeholder: fixed when the SQL was compiled, or taken from the request's
/// constants each time a cached compilation runs again (a "slot").
package enum SQLBinding: Hashable {
    case value(StoredValue)
    /// The request's constant number `index` (in the order ``PredicateParameterizer`` found them),
    /// folded with the options first when they ask for folding.
    case slot(Int, folding: ComparisonOptions)
    /// The request's fetch limit (-1 for none) and offset.
    case limit, offset
    /// The request's fetch limit, or NULL for none (PostgreSQL's `LIMIT NULL`).
    case limitOrNull

    /// The value to bind for a request with these constants.
    @inlinable package func resolve(constants: [StoredValue], request: FetchRequest) -> StoredValue {
        switch self {
        case .value(let value):
            return value
        case .slot(let index, let folding):
            let value = index < constants.count ? constants[index] : .null
            if !folding.isEmpty, case .string(let text) = value {
                return .string(StringFolding.fold(text, options: folding))
            }
            return value
        case .limit:
            return .integer(request.fetchLimit > 0 ? Int64(request.fetchLimit) : -1)
        case .offset:
            return .integer(Int64(request.fetchOffset))
        case .limitOrNull:
            return request.fetchLimit > 0 ? .integer(Int64(request.fetchLimit)) : .null
        }
    }
}

/// A piece of SQL and the values bound to its `?` placeholders, in order of appearance.
///
/// Fragments are combined by concatenation, so a fragment's bindings always follow the text order;
/// nothing that came from a user ever becomes part of the text.
package struct SQLFragment {
    package var sql: String
    package var bindings: [SQLBinding]

    package init(_ sql: String, _ values: [StoredValue] = []) {
        self.sql = sql
        self.bindings = values.map(SQLBinding.value)
    }

    package init(_ sql: String, bindings: [SQLBinding]) {
        self.sql = sql
        self.bindings = bindings
    }

    /// A single placeholder bound to `value`.
    package static func bound(_ value: StoredValue) -> SQLFragment { SQLFragment("?", [value]) }

    /// A single placeholder bound to a slot.
    package static func bound(_ binding: SQLBinding) -> SQLFragment { SQLFragment("?", bindings: [binding]) }

    package static let alwaysTrue = SQLFragment("1")
    package static let alwaysFalse = SQLFragment("0")

    /// Joins fragments with a separator.
    package static func joined(_ parts: [SQLFragment], separator: String) -> SQLFragment {
        SQLFragment(parts.map(\.sql).joined(separator: separator), bindings: parts.flatMap(\.bindings))
    }

    /// `format` with each `%` replaced, in order, by the SQL of the next part.
    package static func template(_ format: String, _ parts: SQLFragment...) -> SQLFragment {
        var sql = ""
        var bindings: [SQLBinding] = []
        var remaining = parts[...]
        for character in format {
            if character == "%", let part = remaining.popFirst() {
                sql += part.sql
                bindings += part.bindings
            } else {
                sql.append(character)
            }
        }
        return SQLFragment(sql, bindings: bindings)
    }
}
