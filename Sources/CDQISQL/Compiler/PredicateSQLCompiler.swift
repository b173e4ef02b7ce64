import CDQIModel
import CDQIPredicate
import Foundation

/// Compiles a predicate over one entity of a store into one SQL condition with bound values, with the
/// semantics of the in-memory evaluator (predicate-language.md §3 and §4.2): null-safe two-valued
/// comparisons, kinds decided from the model, LEFT JOINs for to-one paths, `EXISTS` for ANY/ALL/NONE and
/// membership over to-many paths, correlated subqueries for `@count`/`@sum`/… and `SUBQUERY(…).@count`,
/// and the helper functions of the dialect (``SQLiteFunctions``, ``PostgresFunctions``) for string folding,
/// LIKE and MATCHES.
///
/// The fetched row is aliased `t0`; joins and subqueries use `t1`, `t2`, … Constructs outside the
/// closed list of §4.1 are refused with ``PredicateSQLError`` before anything runs.
package struct PredicateSQLCompiler {
    package let model: ManagedObjectModel
    package let schema: StoreSchema
    package let storeIdentifier: String
    /// The SQL language written: SQLite's, or PostgreSQL's.
    package let dialect: SQLDialect
    /// `now()` is evaluated once per fetch.
    package let now: Date
    private var aliasCount = 0
    package var variables: [String: Scope] = [:]
    /// In the select list and HAVING of a dictionary fetch, `count:` `sum:` … of a single-valued key
    /// path aggregate over the rows of each group.
    package var allowsRowAggregates = false
    /// The named columns of a dictionary fetch, which HAVING refers to as `$name`.
    package var namedExpressions: [String: Operand] = [:]
    /// The constants of a parameterized predicate (``PredicateParameterizer``), by slot: decisions are
    /// made from their classes; the SQL binds whatever constant a later request has in the slot.
    package var slotValues: [StoredValue] = []
    /// How many negations (`NOT`, and the `NOT` inside ALL) enclose what is being compiled. At 0 a
    /// condition's NULL acts as false (WHERE, HAVING, AND/OR, the WHERE of EXISTS and COUNT subqueries
    /// all drop NULL rows), so comparisons need no `COALESCE(…, 0)`; under a negation they do, since
    /// `NOT NULL` is NULL where the two-valued result must be true.
    private var negationDepth = 0

    /// One query level: the fetched row, or the row of an `EXISTS` or aggregate subquery, with the
    /// LEFT JOINs its to-one key paths need.
    package final class Scope {
        package let alias: String
        package let entity: EntityDescription
        package let mapping: EntityMapping
        package var joins: [String] = []
        package var joinedAliases: [String: String] = [:]

        package init(alias: String, entity: EntityDescription, mapping: EntityMapping) {
            self.alias = alias
            self.entity = entity
            self.mapping = mapping
        }

        package var joinClause: String { joins.isEmpty ? "" : " " + joins.joined(separator: " ") }
    }

    /// A single-valued operand: its SQL, its kind when known, and its value when it is a constant.
    package struct Operand {
        package var fragment: SQLFragment
        package var kind: ValueKind?
        package var constant: StoredValue?
        /// For a constant of a parameterized predicate, its slot.
        package var slot: Int? = nil

        package var isNullConstant: Bool { constant?.isNull == true }
    }

    /// A key path that goes through a to-many relationship: where it starts, the relationship, and the
    /// components after it.
    package struct ToManyPath {
        package var ownerAlias: String
        package var ownerEntity: EntityDescription
        package var relationship: RelationshipDescription
        package var destination: EntityDescription
        package var rest: ArraySlice<KeyPathComponent>
        package var text: String
    }

    /// A resolved key path.
    package enum Resolved {
        case single(Operand)
        case toMany(ToManyPath)
    }

    package init(model: ManagedObjectModel, schema: StoreSchema, storeIdentifier: String, dialect: SQLDialect, now: Date = Date()) {
        self.model = model
        self.schema = schema
        self.storeIdentifier = storeIdentifier
        self.dialect = dialect
        self.now = now
    }

    /// The scope of the fetched entity (`t0`).
    package func rootScope(for entityName: String) throws(PredicateSQLError) -> Scope {
        guard let entity = model.entity(named: entityName), let mapping = schema.entity(named: entityName) else {
            throw .unsupported("the model has no entity '\(entityName)'")
        }
        return Scope(alias: "t0", entity: entity, mapping: mapping)
    }

    package mutating func nextAlias() -> String {
        aliasCount += 1
        return "t\(aliasCount)"
    }

    // MARK: Predicates

    package mutating func compile(_ predicate: PredicateNode, in scope: Scope) throws(PredicateSQLError) -> SQLFragment {
        switch predicate.kind {
        case .constant(let value):
            return value ? dialect.alwaysTrue : dialect.alwaysFalse
        case .and(let items):
            if items.isEmpty { return dialect.alwaysTrue }
            var parts: [SQLFragment] = []
            for item in items { parts.append(try compile(item, in: scope)) }
            return SQLFragment.template("(%)", .joined(parts, separator: " AND "))
        case .or(let items):
            if items.isEmpty { return dialect.alwaysFalse }
            var parts: [SQLFragment] = []
            for item in items { parts.append(try compile(item, in: scope)) }
            return SQLFragment.template("(%)", .joined(parts, separator: " OR "))
        case .not(let inner):
            negationDepth += 1
            defer { negationDepth -= 1 }
            return SQLFragment.template("NOT (%)", try compile(inner, in: scope))
        case .comparison(let comparison):
            return try compile(comparison, in: scope)
        }
    }

    private mutating func compile(_ c: PredicateNode.Comparison, in scope: Scope) throws(PredicateSQLError) -> SQLFragment {
        let text = PredicateNode(kind: .comparison(c)).predicateFormat
        switch c.op {
        case .customSelector, .utiConformsTo, .utiEquals: throw .unsupported("the operator in '\(text)'")
        default: break
        }
        switch c.modifier {
        case .direct:
            // The membership forms are the only comparisons a bare to-many key path may take part in.
            if c.op == .in, case .toMany(let path)? = try resolveSide(c.rhs, in: scope) {
                return try membership(of: c.lhs, in: path, options: c.options, scope: scope)
            }
            if c.op == .contains, case .toMany(let path)? = try resolveSide(c.lhs, in: scope) {
                return try membership(of: c.rhs, in: path, options: c.options, scope: scope)
            }
            let lhs = try operandOrCollection(c.lhs, in: scope)
            let rhs = try operandOrCollection(c.rhs, in: scope)
            return try compare(lhs, c.op, c.options, rhs, text: text)
        case .any, .all:
            guard case .toMany(let path)? = try resolveSide(c.lhs, in: scope) else {
                return try quantifiedSingle(c, in: scope, text: text)
            }
            let rhs = try operandOrCollection(c.rhs, in: scope)
            let (inner, source) = try toManySource(path)
            let element = try elementOperand(path, in: inner)
            // ALL wraps the condition in NOT below: compile it as negated.
            if c.modifier == .all { negationDepth += 1 }
            defer { if c.modifier == .all { negationDepth -= 1 } }
            let condition = try compare(.single(element), c.op, c.options, rhs, text: text)
            let from = "SELECT 1 FROM \(source.from)\(inner.joinClause) WHERE \(source.correlation)"
            // NONE arrives as NOT (ANY …).
            if c.modifier == .any { return SQLFragment.template("EXISTS (\(from) AND %)", condition) }
            return SQLFragment.template("NOT EXISTS (\(from) AND NOT (%))", condition)
        }
    }

    /// ANY/SOME/ALL on a left side that is not a collection (an attribute, a to-one path, `$v.name` in a
    /// SUBQUERY): the plain comparison when the value is not nil; a nil value makes ANY false and ALL true,
    /// as for an absent collection (predicate-language.md §3.7). NONE arrives as NOT (ANY …), its negation.
    /// A literal aggregate on the left is still refused: only the evaluator iterates one.
    private mutating func quantifiedSingle(
        _ c: PredicateNode.Comparison, in scope: Scope, text: String
    ) throws(PredicateSQLError) -> SQLFragment {
        guard case .single(let lhs) = try operandOrCollection(c.lhs, in: scope) else {
            throw .modifierNeedsToMany(keyPath: c.lhs.expressionFormat)
        }
        let rhs = try operandOrCollection(c.rhs, in: scope)
        let condition = try compare(.single(lhs), c.op, c.options, rhs, text: text)
        if let constant = lhs.constant {
            if constant.isNull { return c.modifier == .all ? dialect.alwaysTrue : dialect.alwaysFalse }
            return condition
        }
        if c.modifier == .any { return SQLFragment.template("(% IS NOT NULL AND %)", lhs.fragment, condition) }
        return SQLFragment.template("(% IS NULL OR %)", lhs.fragment, condition)
    }

    /// `x IN toMany` / `toMany CONTAINS x`: some related element equals `x` (`=`, since a nil `x` is never a member).
    private mutating func membership(
        of value: ExpressionNode, in path: ToManyPath, options: ComparisonOptions, scope: Scope
    ) throws(PredicateSQLError) -> SQLFragment {
        let needle = try operand(value, in: scope)
        let (inner, source) = try toManySource(path)
        let element = try elementOperand(path, in: inner)
        guard !needle.isNullConstant else { return dialect.alwaysFalse }
        let equal: SQLFragment
        switch decideKinds(element, needle) {
        case .incompatible: return dialect.alwaysFalse
        case .compatible(let left, let right):
            let (l, r) = fold(left, right, options: options)
            equal = SQLFragment.template("% = %", l.fragment, r.fragment)
        }
        return SQLFragment.template(
            "EXISTS (SELECT 1 FROM \(source.from)\(inner.joinClause) WHERE \(source.correlation) AND %)", equal)
    }

    // MARK: Comparisons

    /// A comparison side: a single operand, or a collection of operands (IN and BETWEEN right sides).
    package enum Side {
        case single(Operand)
        case collection([Operand], text: String)
    }

    private mutating func operandOrCollection(_ expression: ExpressionNode, in scope: Scope) throws(PredicateSQLError) -> Side {
        switch expression.kind {
        case .aggregate(let elements), .constantCollection(let elements, _):
            var operands: [Operand] = []
            for element in elements { operands.append(try operand(element, in: scope)) }
            return .collection(operands, text: expression.expressionFormat)
        default:
            return .single(try operand(expression, in: scope))
        }
    }

    private mutating func compare(
        _ lhsSide: Side, _ op: ComparisonOperator, _ options: ComparisonOptions, _ rhsSide: Side, text: String
    ) throws(PredicateSQLError) -> SQLFragment {
        switch (lhsSide, op, rhsSide) {
        case (.single(let lhs), .between, .collection(let bounds, let boundsText)):
            guard bounds.count == 2 else {
                throw .typeMismatch(expression: boundsText, reason: "BETWEEN needs exactly two bounds")
            }
            return between(lhs, bounds[0], bounds[1], options: options)
        case (_, .between, _):
            throw .typeMismatch(expression: text, reason: "BETWEEN needs a two-element aggregate such as {1, 10}")
        case (.single(let lhs), .in, .collection(let elements, _)):
            return membership(lhs, in: elements, options: options)
        case (.collection(let elements, _), .contains, .single(let rhs)):
            return membership(rhs, in: elements, options: options)
        case (.single(let lhs), .in, .single(let rhs)):
            // A string container: substring test.
            return stringTest("cdqi_contains", rhs, lhs, options: options)
        case (.single(let lhs), .contains, .single(let rhs)):
            return stringTest("cdqi_contains", lhs, rhs, options: options)
        case (.single(let lhs), _, .single(let rhs)):
            return try scalarComparison(lhs, op, options, rhs, text: text)
        default:
            throw .unsupported("a collection operand in '\(text)'")
        }
    }

    private func scalarComparison(
        _ lhs: Operand, _ op: ComparisonOperator, _ options: ComparisonOptions, _ rhs: Operand, text: String
    ) throws(PredicateSQLError) -> SQLFragment {
        switch op {
        case .beginsWith: return stringTest("cdqi_beginswith", lhs, rhs, options: options)
        case .endsWith: return stringTest("cdqi_endswith", lhs, rhs, options: options)
        case .like: return stringTest("cdqi_like", lhs, rhs, options: options)
        case .matches:
            if dialect == .postgres { return try postgresMatches(lhs, rhs, options: options, text: text) }
            return stringTest("cdqi_matches", lhs, rhs, options: options)
        default: break
        }
        guard case .compatible(let left, let right) = decideKinds(lhs, rhs) else {
            // Different kinds: never equal, never ordered; the nil rules still come first.
            switch op {
            case .equalTo: return bothNull(lhs, rhs)
            case .notEqualTo: return SQLFragment.template("NOT (%)", bothNull(lhs, rhs))
            case .lessThanOrEqual, .greaterThanOrEqual: return bothNull(lhs, rhs)
            default: return dialect.alwaysFalse
            }
        }
        let (l, r) = fold(left, right, options: options)
        let kind = l.kind ?? r.kind
        let collation = kind == .string ? dialect.codePointCollation : ""
        switch op {
        case .equalTo:
            if r.isNullConstant { return SQLFragment.template("% IS NULL", l.fragment) }
            if l.isNullConstant { return SQLFragment.template("% IS NULL", r.fragment) }
            if dialect == .postgres, let indexable = indexableOrdering(l, "=", r, collation: collation) { return indexable }
            return SQLFragment.template("% \(dialect.isOperator) %", l.fragment, r.fragment)
        case .notEqualTo:
            if r.isNullConstant { return SQLFragment.template("% IS NOT NULL", l.fragment) }
            if l.isNullConstant { return SQLFragment.template("% IS NOT NULL", r.fragment) }
            return SQLFragment.template("% \(dialect.isNotOperator) %", l.fragment, r.fragment)
        case .lessThan, .greaterThan:
            if kind?.isOrdered == false || l.isNullConstant || r.isNullConstant { return dialect.alwaysFalse }
            let symbol = op == .lessThan ? "<" : ">"
            if let indexable = indexableOrdering(l, symbol, r, collation: collation) { return indexable }
            return dialect.orFalse(SQLFragment.template("% \(symbol) %\(collation)", l.fragment, r.fragment))
        case .lessThanOrEqual, .greaterThanOrEqual:
            if kind?.isOrdered == false || l.isNullConstant || r.isNullConstant { return bothNull(l, r) }
            let symbol = op == .lessThanOrEqual ? "<=" : ">="
            if let indexable = indexableOrdering(l, symbol, r, collation: collation) { return indexable }
            return SQLFragment.template(
                "COALESCE(% \(symbol) %\(collation), % \(dialect.isOperator) %)", l.fragment, r.fragment, l.fragment, r.fragment)
        default:
            throw .unsupported("the operator in '\(text)'")
        }
    }

    /// An ordering (or, on PostgreSQL, an equality) against a non-nil constant, written so that the engine
    /// can use an index on the other side (an index cannot serve a comparison inside a function call such
    /// as `COALESCE(x < ?, 0)`, nor PostgreSQL's `IS NOT DISTINCT FROM`). With
    /// the constant non-nil, the comparison is NULL only when `x` is nil, where the two-valued result
    /// is false (for `<=`/`>=` too, since `x IS ?` is false): outside negations plain `x < ?` gives
    /// that (NULL drops the row); under one, `(x < ? AND x IS NOT NULL)` makes the NULL a 0.
    private func indexableOrdering(_ l: Operand, _ symbol: String, _ r: Operand, collation: String) -> SQLFragment? {
        let column: SQLFragment
        if r.constant != nil, !r.isNullConstant, l.constant == nil {
            column = l.fragment
        } else if l.constant != nil, !l.isNullConstant, r.constant == nil {
            column = r.fragment
        } else {
            return nil
        }
        if negationDepth == 0 { return SQLFragment.template("% \(symbol) %\(collation)", l.fragment, r.fragment) }
        return SQLFragment.template("(% \(symbol) %\(collation) AND % IS NOT NULL)", l.fragment, r.fragment, column)
    }

    /// True exactly when both operands are nil.
    private func bothNull(_ lhs: Operand, _ rhs: Operand) -> SQLFragment {
        func isNull(_ operand: Operand) -> SQLFragment? {
            if let constant = operand.constant { return constant.isNull ? nil : dialect.alwaysFalse }
            return SQLFragment.template("% IS NULL", operand.fragment)
        }
        let parts = [isNull(lhs), isNull(rhs)].compactMap { $0 }
        if parts.contains(where: { dialect.isAlwaysFalse($0) }) { return dialect.alwaysFalse }
        if parts.isEmpty { return dialect.alwaysTrue }
        return SQLFragment.template("(%)", .joined(parts, separator: " AND "))
    }

    private func between(_ value: Operand, _ low: Operand, _ high: Operand, options: ComparisonOptions) -> SQLFragment {
        if value.isNullConstant || low.isNullConstant || high.isNullConstant { return dialect.alwaysFalse }
        guard case .compatible(let v, let l) = decideKinds(value, low), case .compatible(_, let h) = decideKinds(value, high),
            (v.kind ?? l.kind ?? h.kind)?.isOrdered != false
        else { return dialect.alwaysFalse }
        let (foldedValue, foldedLow) = fold(v, l, options: options)
        let (_, foldedHigh) = fold(v, h, options: options)
        // The collation goes on the value: BETWEEN becomes two comparisons, and both must use it.
        let collation = (v.kind ?? l.kind ?? h.kind) == .string ? dialect.codePointCollation : ""
        return dialect.orFalse(
            SQLFragment.template(
                "%\(collation) BETWEEN % AND %", foldedValue.fragment, foldedLow.fragment, foldedHigh.fragment))
    }

    /// Membership in a list of operands: nil never matches, elements of another kind are dropped.
    private func membership(_ value: Operand, in elements: [Operand], options: ComparisonOptions) -> SQLFragment {
        if value.isNullConstant { return dialect.alwaysFalse }
        var kept: [SQLFragment] = []
        var foldedValue = value
        for element in elements where !element.isNullConstant {
            guard case .compatible(let v, let e) = decideKinds(value, element) else { continue }
            let (fv, fe) = fold(v, e, options: options)
            foldedValue = fv
            kept.append(fe.fragment)
        }
        if kept.isEmpty { return dialect.alwaysFalse }
        return dialect.orFalse(SQLFragment.template("% IN (%)", foldedValue.fragment, .joined(kept, separator: ", ")))
    }

    /// A string operator through a registered function: 0 for nil and for operands that are not strings.
    private func stringTest(_ function: String, _ lhs: Operand, _ rhs: Operand, options: ComparisonOptions) -> SQLFragment {
        for operand in [lhs, rhs] {
            if operand.isNullConstant { return dialect.alwaysFalse }
            if let kind = operand.kind, !kind.isString { return dialect.alwaysFalse }
        }
        return SQLFragment.template(
            "\(function)(%, %, %)", lhs.fragment, rhs.fragment, .bound(.integer(Int64(options.rawValue))))
    }

    package enum KindDecision {
        case compatible(Operand, Operand)
        case incompatible
    }

    /// Whether two operands can be compared; object constants are checked against the other side's
    /// table and store (one from elsewhere, or unsaved, matches no row).
    private func decideKinds(_ lhs: Operand, _ rhs: Operand) -> KindDecision {
        var (l, r) = (lhs, rhs)
        if !resolveObjectConstant(&l, against: r.kind) || !resolveObjectConstant(&r, against: l.kind) {
            return .incompatible
        }
        if let a = l.kind, let b = r.kind, !a.isComparable(with: b) { return .incompatible }
        return .compatible(l, r)
    }

    /// Binds an object-ID constant as its primary key when it can denote a row of `kind`'s table.
    private func resolveObjectConstant(_ operand: inout Operand, against kind: ValueKind?) -> Bool {
        guard case .objectID(let reference)? = operand.constant else { return true }
        guard case .object(let table)? = kind else { return kind == nil }
        guard reference.storeIdentifier == storeIdentifier, case .primaryKey(let key) = reference.identity,
            schema.entity(named: reference.entityName)?.tableName == table
        else { return false }
        let fragment = operand.slot == nil ? SQLFragment.bound(.integer(key)) : operand.fragment
        operand = Operand(fragment: fragment, kind: .object(table: table), constant: .integer(key), slot: operand.slot)
        return true
    }

    /// Applies `[c]`/`[d]` folding to string operands: constants in Swift, columns with `cdqi_fold`.
    private func fold(_ lhs: Operand, _ rhs: Operand, options: ComparisonOptions) -> (Operand, Operand) {
        let folding = options.effectiveFolding
        guard !folding.isEmpty, (lhs.kind ?? rhs.kind) == .string else { return (lhs, rhs) }
        func folded(_ operand: Operand) -> Operand {
            if case .string(let text)? = operand.constant {
                let value = StoredValue.string(StringFolding.fold(text, options: folding))
                let fragment = operand.slot.map { SQLFragment.bound(.slot($0, folding: folding)) } ?? .bound(value)
                return Operand(fragment: fragment, kind: .string, constant: value, slot: operand.slot)
            }
            if operand.constant != nil { return operand }
            return Operand(
                fragment: SQLFragment.template("cdqi_fold(%, %)", operand.fragment, .bound(.integer(Int64(folding.rawValue)))),
                kind: operand.kind, constant: nil)
        }
        return (folded(lhs), folded(rhs))
    }
}
