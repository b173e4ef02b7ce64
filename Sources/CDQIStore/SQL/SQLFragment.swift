import CDQIPredicate

/// A piece of SQL and the values bound to its `?` placeholders, in order of appearance.
///
/// Fragments are combined by concatenation, so a fragment's bindings always follow the text order;
/// nothing that came from a user ever becomes part of the text.
struct SQLFragment {
    var sql: String
    var bindings: [StoredValue]

    init(_ sql: String, _ bindings: [StoredValue] = []) {
        self.sql = sql
        self.bindings = bindings
    }

    /// A single placeholder bound to `value`.
    static func bound(_ value: StoredValue) -> SQLFragment { SQLFragment("?", [value]) }

    static let alwaysTrue = SQLFragment("1")
    static let alwaysFalse = SQLFragment("0")

    /// Joins fragments with a separator.
    static func joined(_ parts: [SQLFragment], separator: String) -> SQLFragment {
        SQLFragment(parts.map(\.sql).joined(separator: separator), parts.flatMap(\.bindings))
    }

    /// `format` with each `%` replaced, in order, by the SQL of the next part.
    static func template(_ format: String, _ parts: SQLFragment...) -> SQLFragment {
        var sql = ""
        var bindings: [StoredValue] = []
        var remaining = parts[...]
        for character in format {
            if character == "%", let part = remaining.popFirst() {
                sql += part.sql
                bindings += part.bindings
            } else {
                sql.append(character)
            }
        }
        return SQLFragment(sql, bindings)
    }
}
