import CDQIPredicate

/// What a fetch runs and how SQLite runs it: the SQL, the values bound to it, SQLite's query plan, and
/// warnings in plain words (a filtered or sorted attribute that no index serves, with the fetch index
/// to add; a constant whose kind differs from its attribute's, which makes a comparison always false).
///
/// ```swift
/// print(try context.explain(request))
/// // SELECT t0.Z_PK FROM ZEMPLOYEE t0 WHERE t0.ZSALARY > ?
/// // bindings: 100000
/// // plan:
/// //   SCAN t0
/// // warning: the fetch reads every row of ZEMPLOYEE to filter on 'salary': add a fetch index on Employee.salary …
/// ```
public struct FetchExplanation: Sendable, Hashable, CustomStringConvertible {
    /// The statement, as prepared.
    public var sql: String
    /// The values bound to its parameters, in order.
    public var bindings: [StoredValue]
    /// SQLite's `EXPLAIN QUERY PLAN` lines, indented by their depth in the plan.
    public var queryPlan: [String]
    /// Problems worth fixing, each a sentence that names the attribute and the fix.
    public var warnings: [String]

    /// Creates an explanation.
    public init(sql: String, bindings: [StoredValue], queryPlan: [String], warnings: [String]) {
        self.sql = sql
        self.bindings = bindings
        self.queryPlan = queryPlan
        self.warnings = warnings
    }

    /// The SQL, the bindings, the plan and the warnings, a block each.
    public var description: String {
        var lines = [sql]
        if !bindings.isEmpty {
            lines.append("bindings: " + bindings.map { ExpressionNode(kind: .constant($0)).expressionFormat }.joined(separator: ", "))
        }
        lines.append("plan:")
        lines += queryPlan.map { "  " + $0 }
        lines += warnings.map { "warning: " + $0 }
        return lines.joined(separator: "\n")
    }
}
