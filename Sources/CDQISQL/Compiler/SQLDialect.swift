import CDQIPredicate

/// The SQL language of a store's engine, as the SQL compiler needs to know it: how identifiers are
/// quoted, how values are bound, how truth values, collations and the compiler's helper functions are
/// written.
///
/// One predicate compiles to either dialect with the in-memory evaluator's semantics
/// (predicate-language.md §3–4). SQLite runs the Swift functions of ``SQLiteFunctions``; PostgreSQL runs
/// the SQL functions of ``PostgresFunctions``, installed in the store's schema. What PostgreSQL cannot
/// do exactly as the evaluator does is refused with ``PredicateSQLError/notInDialect(dialect:construct:offset:reason:)``
/// (at compile time) or by the functions themselves (at run time), never answered differently.
///
/// | | `.sqlite` | `.postgres` |
/// | --- | --- | --- |
/// | identifiers | as Core Data names them (`ZEMPLOYEE`) | quoted, so the names keep their case (`"ZEMPLOYEE"`) |
/// | placeholders | `?` | `$1::bigint`, `$2::text`, …, each cast to its value's type |
/// | truth values | `1`, `0`, `x IS y` | `TRUE`, `FALSE`, `x IS NOT DISTINCT FROM y` |
/// | string order | `BINARY` (code points) | `COLLATE "C"` (code points) |
/// | nil in ORDER BY | first when ascending (SQLite's rule) | `NULLS FIRST` / `NULLS LAST`, the same order |
/// | `a / 0` | NULL (SQLite's rule) | `a / NULLIF(0, 0)`: NULL, not an error |
/// | no fetch limit | `LIMIT -1` | `LIMIT NULL` |
public enum SQLDialect: Sendable, Hashable, CustomStringConvertible {
    /// SQLite, with ``SQLiteFunctions`` registered on the connection.
    case sqlite
    /// PostgreSQL (15 or later), with ``PostgresFunctions`` installed in the store's schema.
    case postgres

    /// The dialect's name, for messages.
    public var description: String {
        switch self {
        case .sqlite: "SQLite"
        case .postgres: "PostgreSQL"
        }
    }

    /// A table or column name as the statement must spell it.
    package func identifier(_ name: String) -> String {
        switch self {
        case .sqlite: name
        // Core Data's names never hold a quote: the common case skips Foundation's replacing.
        case .postgres:
            name.utf8.contains(UInt8(ascii: "\"")) ? "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : "\"" + name + "\""
        }
    }

    /// `alias.column`.
    package func column(_ alias: String, _ name: String) -> String { "\(alias).\(identifier(name))" }

    /// The condition that is always true, and always false.
    package var alwaysTrue: SQLFragment { self == .sqlite ? .alwaysTrue : SQLFragment("TRUE") }
    package var alwaysFalse: SQLFragment { self == .sqlite ? .alwaysFalse : SQLFragment("FALSE") }

    /// Whether a fragment is this dialect's constant false.
    package func isAlwaysFalse(_ fragment: SQLFragment) -> Bool { fragment.sql == alwaysFalse.sql }

    /// The null-safe equality `a IS b` (true when both are NULL), and its negation.
    package var isOperator: String { self == .sqlite ? "IS" : "IS NOT DISTINCT FROM" }
    package var isNotOperator: String { self == .sqlite ? "IS NOT" : "IS DISTINCT FROM" }

    /// A condition whose NULL counts as false: `COALESCE(condition, 0)`.
    package func orFalse(_ condition: SQLFragment) -> SQLFragment {
        SQLFragment.template(self == .sqlite ? "COALESCE(%, 0)" : "COALESCE(%, FALSE)", condition)
    }

    /// What follows a string operand of `<`, `>`, BETWEEN, MIN and MAX so that strings compare by code
    /// point, as the evaluator compares them (SQLite's default BINARY collation does already).
    package var codePointCollation: String { self == .sqlite ? "" : " COLLATE \"C\"" }

    /// A number made a double before arithmetic.
    package func double(_ value: SQLFragment) -> SQLFragment {
        SQLFragment.template(self == .sqlite ? "CAST(% AS REAL)" : "CAST(% AS double precision)", value)
    }

    /// `a / b`, NULL when `b` is 0 (the evaluator's nil; PostgreSQL would raise an error).
    package func divide(_ a: SQLFragment, _ b: SQLFragment) -> SQLFragment {
        SQLFragment.template(self == .sqlite ? "(% / %)" : "(% / NULLIF(%, 0))", a, b)
    }

    /// The argument of `cdqi_sum`/`cdqi_avg`, and the average of integers as a double.
    package func doubleAggregateArgument(_ sql: String) -> String {
        self == .sqlite ? sql : "CAST(\(sql) AS double precision)"
    }

    package func integerAverage(_ sql: String) -> String {
        self == .sqlite ? "AVG(\(sql))" : "CAST(AVG(\(sql)) AS double precision)"
    }

    /// The binding of a fetch limit: SQLite reads -1 as no limit, PostgreSQL NULL.
    package var limitBinding: SQLBinding { self == .sqlite ? .limit : .limitOrNull }

    /// An ORDER BY term: SQLite puts NULL first when ascending and last when descending; PostgreSQL is
    /// told to do the same.
    package func orderTerm(_ operand: SQLFragment, collation: String, ascending: Bool) -> SQLFragment {
        switch self {
        case .sqlite:
            return SQLFragment.template("%\(collation) \(ascending ? "ASC" : "DESC")", operand)
        case .postgres:
            return SQLFragment.template("%\(collation) \(ascending ? "ASC NULLS FIRST" : "DESC NULLS LAST")", operand)
        }
    }
}
