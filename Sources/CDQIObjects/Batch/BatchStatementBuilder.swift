import CDQIModel
import CDQIPredicate

/// Compiles batch requests to one `DELETE` or `UPDATE … RETURNING Z_ENT, Z_PK` on the entity's table,
/// aliased `t0`, with the predicate compiled as fetches compile it (every value bound).
///
/// Without joins the WHERE clause is the fetch's own; when the predicate follows to-one relationships
/// (LEFT JOINs) or the request has a window, it becomes `t0.Z_PK IN (SELECT …)` over the fetch's query.
package struct BatchStatementBuilder {
    let model: ManagedObjectModel
    let schema: StoreSchema
    let storeIdentifier: String
    /// The SQL language written.
    let dialect: SQLDialect

    package init(model: ManagedObjectModel, schema: StoreSchema, storeIdentifier: String, dialect: SQLDialect) {
        self.model = model
        self.schema = schema
        self.storeIdentifier = storeIdentifier
        self.dialect = dialect
    }

    /// The table and the condition choosing the rows of a request.
    package func selection(_ request: FetchRequest) throws(PredicateSQLError) -> (table: String, condition: SQLFragment) {
        var compiler = PredicateSQLCompiler(model: model, schema: schema, storeIdentifier: storeIdentifier, dialect: dialect)
        let root = try compiler.rootScope(for: request.entityName)
        let table = root.mapping.tableName
        if request.hasWindow {
            let builder = FetchSQLBuilder(model: model, schema: schema, storeIdentifier: storeIdentifier, dialect: dialect)
            let select = try builder.build(request, shape: .objectIDs)
            let key = dialect.identifier("Z_PK")
            // PostgreSQL 15 wants a name for a subquery in FROM.
            let name = dialect == .sqlite ? "" : " AS w"
            return (table, SQLFragment.template("t0.\(key) IN (SELECT \(key) FROM (%)\(name))", select))
        }
        var conditions: [SQLFragment] = []
        if let filter = FetchSQLBuilder.entityFilter(
            root, includesSubentities: request.includesSubentities, schema: schema, dialect: dialect)
        {
            conditions.append(filter)
        }
        if let predicate = request.predicate { conditions.append(try compiler.compile(predicate, in: root)) }
        let condition = conditions.isEmpty ? dialect.alwaysTrue : SQLFragment.joined(conditions, separator: " AND ")
        guard root.joinClause.isEmpty else {
            let key = dialect.column("t0", "Z_PK")
            return (
                table,
                SQLFragment.template(
                    "\(key) IN (SELECT \(key) FROM \(dialect.identifier(table)) t0\(root.joinClause) WHERE %)", condition)
            )
        }
        return (table, condition)
    }

    /// `DELETE FROM <table> AS t0 WHERE … [RETURNING Z_ENT, Z_PK]`.
    func delete(_ request: FetchRequest, returning: Bool) throws(PredicateSQLError) -> (table: String, statement: SQLFragment) {
        let (table, condition) = try selection(request)
        return (
            table,
            SQLFragment.template("DELETE FROM \(dialect.identifier(table)) AS t0 WHERE %\(returningClause(returning))", condition)
        )
    }

    /// `UPDATE <table> AS t0 SET …, Z_OPT = Z_OPT + 1 WHERE … [RETURNING Z_ENT, Z_PK]`, the values
    /// converted to their attributes' types and set in attribute-name order.
    func update(_ request: BatchUpdateRequest, returning: Bool) throws(BatchError) -> SQLFragment {
        guard let entity = model.entity(named: request.entityName), let mapping = schema.entity(named: request.entityName) else {
            throw .unknownEntity(request.entityName)
        }
        let fetch = FetchRequest(
            entityName: request.entityName, predicate: request.predicate, includesSubentities: request.includesSubentities)
        let table: String, condition: SQLFragment
        do {
            (table, condition) = try selection(fetch)
        } catch {
            throw .predicate(error)
        }
        var compiler = PredicateSQLCompiler(model: model, schema: schema, storeIdentifier: storeIdentifier, dialect: dialect)
        var sets: [SQLFragment] = []
        for (name, value) in request.propertiesToUpdate.sorted(by: { $0.key < $1.key }) {
            guard let attribute = attribute(named: name, of: entity), !attribute.isTransient,
                let column = mapping.columns[name]?.value
            else { throw .notAnAttribute(entity: request.entityName, property: name) }
            switch value {
            case .stored(let stored):
                sets.append(SQLFragment.template("\(dialect.identifier(column)) = %", .bound(try converted(stored, attribute, entity))))
            case .value(let swiftValue):
                sets.append(SQLFragment.template("\(dialect.identifier(column)) = %", .bound(try converted(swiftValue, attribute, entity))))
            case .expression(let expression):
                // A scope of its own: joins it would need cannot join an UPDATE.
                do {
                    let scope = try compiler.rootScope(for: request.entityName)
                    let operand = try compiler.operand(expression, in: scope)
                    guard scope.joinClause.isEmpty else {
                        throw BatchError.unsupported(
                            "the expression for \(entity.name).\(name) follows a to-one relationship, which an UPDATE cannot join")
                    }
                    sets.append(SQLFragment.template("\(dialect.identifier(column)) = %", operand.fragment))
                } catch let error as BatchError {
                    throw error
                } catch let error as PredicateSQLError {
                    throw .predicate(error)
                } catch {
                    throw .unsupported("\(error)")
                }
            }
        }
        guard !sets.isEmpty else { throw .unsupported("propertiesToUpdate is empty") }
        let version = dialect.identifier("Z_OPT")
        sets.append(SQLFragment("\(version) = \(version) + 1"))
        return SQLFragment.template(
            "UPDATE \(dialect.identifier(table)) AS t0 SET % WHERE %\(returningClause(returning))",
            .joined(sets, separator: ", "), condition)
    }

    /// ` RETURNING Z_ENT, Z_PK`, or nothing.
    private func returningClause(_ returning: Bool) -> String {
        returning ? " RETURNING \(dialect.identifier("Z_ENT")), \(dialect.identifier("Z_PK"))" : ""
    }

    private func attribute(named name: String, of entity: EntityDescription) -> AttributeDescription? {
        for candidate in [entity] + model.ancestors(of: entity) {
            if let found = candidate.attribute(named: name) { return found }
        }
        return nil
    }

    private func converted(_ value: Any?, _ attribute: AttributeDescription, _ entity: EntityDescription) throws(BatchError) -> StoredValue {
        do {
            return try ValueConversion.storedValue(value, type: attribute.type)
        } catch {
            throw .valueMismatch(entity: entity.name, attribute: attribute.name, expected: error.expected)
        }
    }
}
