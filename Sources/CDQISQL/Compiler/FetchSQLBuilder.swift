import CDQIModel
import CDQIPredicate
import Foundation

/// Turns a fetch request into one SELECT statement with its bindings.
package struct FetchSQLBuilder {
    package let model: ManagedObjectModel
    package let schema: StoreSchema
    package let storeIdentifier: String
    /// The SQL language written.
    package let dialect: SQLDialect

    package init(model: ManagedObjectModel, schema: StoreSchema, storeIdentifier: String, dialect: SQLDialect) {
        self.model = model
        self.schema = schema
        self.storeIdentifier = storeIdentifier
        self.dialect = dialect
    }

    /// What the statement returns.
    package enum Shape: Hashable {
        /// `Z_ENT, Z_PK` of each matching row, in order.
        case objectIDs
        /// One row: the number of matches.
        case count
        /// `Z_ENT, Z_PK, …` followed by the given columns of the fetched table (`t0`), in order: whole
        /// rows, to fill objects in the same query.
        case rows(columns: String)
    }

    /// Builds the statement. A predicate rewritten by ``PredicateParameterizer`` comes with the constants
    /// its slots stood for, from which the compiler takes their classes.
    package func build(_ request: FetchRequest, shape: Shape, slotValues: [StoredValue] = []) throws(PredicateSQLError) -> SQLFragment {
        var compiler = PredicateSQLCompiler(model: model, schema: schema, storeIdentifier: storeIdentifier, dialect: dialect)
        compiler.slotValues = slotValues
        let root = try compiler.rootScope(for: request.entityName)
        var conditions: [SQLFragment] = []

        if let filter = Self.entityFilter(root, includesSubentities: request.includesSubentities, schema: schema, dialect: dialect) {
            conditions.append(filter)
        }
        if let predicate = request.predicate {
            conditions.append(try compiler.compile(predicate, in: root))
        }

        let hasWindow = request.hasWindow
        var orderTerms: [SQLFragment] = []
        if shape != .count || hasWindow {
            orderTerms = try Self.orderTerms(request.sortDescriptors, compiler: &compiler, scope: root)
            // Ties break by primary key, so that sorted results and windows are stable. Without sort
            // descriptors or a window the order is the store's, as in Core Data: sorting by key would
            // make a filter on an indexed attribute sort all its matches.
            if !orderTerms.isEmpty || hasWindow { orderTerms.append(SQLFragment(dialect.column("t0", "Z_PK"))) }
        }

        // A windowed count counts the rows of the window, as the fetch would return them.
        let select: String
        switch shape {
        case .count where !hasWindow: select = "SELECT COUNT(*)"
        case .rows(let columns): select = "SELECT \(columns)"
        default: select = "SELECT \(dialect.column("t0", "Z_ENT")), \(dialect.column("t0", "Z_PK"))"
        }
        var statement = SQLFragment("\(select) FROM \(dialect.identifier(root.mapping.tableName)) t0\(root.joinClause)")
        if !conditions.isEmpty {
            statement = SQLFragment.template("% WHERE %", statement, .joined(conditions, separator: " AND "))
        }
        if !orderTerms.isEmpty {
            statement = SQLFragment.template("% ORDER BY %", statement, .joined(orderTerms, separator: ", "))
        }
        if hasWindow {
            statement = SQLFragment.template("% LIMIT % OFFSET %", statement, .bound(dialect.limitBinding), .bound(.offset))
            // PostgreSQL 15 wants a name for a subquery in FROM.
            let name = dialect == .sqlite ? "" : " AS w"
            if shape == .count { statement = SQLFragment.template("SELECT COUNT(*) FROM (%)\(name)", statement) }
        }
        return statement
    }

    /// Keeps the rows of the fetched entity (and its sub-entities) when its table holds other entities
    /// too; pre-order numbering makes an entity and its descendants one contiguous range.
    package static func entityFilter(
        _ root: PredicateSQLCompiler.Scope, includesSubentities: Bool, schema: StoreSchema, dialect: SQLDialect
    ) -> SQLFragment? {
        let numbers = includesSubentities ? root.mapping.numbersIncludingSubentities : [root.mapping.number]
        let tableEntityCount = schema.entities.filter { $0.tableName == root.mapping.tableName }.count
        guard numbers.count < tableEntityCount, let low = numbers.min(), let high = numbers.max() else { return nil }
        let column = dialect.column("t0", "Z_ENT")
        return low == high
            ? SQLFragment("\(column) = ?", [.integer(Int64(low))])
            : SQLFragment("\(column) BETWEEN ? AND ?", [.integer(Int64(low)), .integer(Int64(high))])
    }

    /// The ORDER BY terms of sort descriptors: key paths through to-one relationships, strings with the
    /// comparison's collation.
    package static func orderTerms(
        _ descriptors: [FetchSortDescriptor], compiler: inout PredicateSQLCompiler, scope: PredicateSQLCompiler.Scope
    ) throws(PredicateSQLError) -> [SQLFragment] {
        var terms: [SQLFragment] = []
        let dialect = compiler.dialect
        for descriptor in descriptors {
            var operand = try compiler.operand(.keyPath(descriptor.keyPath), in: scope)
            var collation = ""
            if operand.kind == .string {
                switch dialect {
                case .sqlite:
                    collation = " COLLATE \(descriptor.comparison.collation)"
                case .postgres:
                    // Code-point order, after case folding for caseInsensitiveCompare: (cdqi_nocase).
                    switch descriptor.comparison {
                    case .compare:
                        break
                    case .caseInsensitiveCompare:
                        operand.fragment = SQLFragment.template(
                            "cdqi_fold(%, %)", operand.fragment, .bound(.integer(Int64(ComparisonOptions.caseInsensitive.rawValue))))
                    case .localizedCompare, .localizedCaseInsensitiveCompare, .localizedStandardCompare:
                        throw .notInDialect(
                            dialect: dialect, construct: "sorting '\(descriptor.keyPath)' by \(descriptor.comparison.rawValue)", offset: nil,
                            reason: "Foundation's localized order has no exact equivalent among PostgreSQL's collations")
                    }
                    collation = dialect.codePointCollation
                }
            }
            terms.append(dialect.orderTerm(operand.fragment, collation: collation, ascending: descriptor.ascending))
        }
        return terms
    }
}
