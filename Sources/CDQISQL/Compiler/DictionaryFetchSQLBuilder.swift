import CDQIModel
import CDQIPredicate
import Foundation

/// Turns a dictionary fetch (properties to fetch, grouping, HAVING, DISTINCT) into one SELECT.
package struct DictionaryFetchSQLBuilder {
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

    /// How a selected column's SQL value becomes a stored value.
    package enum ColumnType: Equatable {
        case integer, double, decimal, bool, string, date, data, uuid, uri
        case object(entity: String)
        /// The fetched row's own object, when its entity has sub-entities: the row's entity number
        /// (`Z_ENT`, in column `entityColumn`) names its entity, `fallback` when the number is none of them.
        case rowObject(entityColumn: Int, entities: [Int64: String], fallback: String)
    }

    package struct Column {
        package var name: String
        package var type: ColumnType
    }

    package func build(_ request: FetchRequest) throws(PredicateSQLError) -> (SQLFragment, [Column]) {
        var compiler = PredicateSQLCompiler(model: model, schema: schema, storeIdentifier: storeIdentifier, dialect: dialect)
        compiler.allowsRowAggregates = true
        let root = try compiler.rootScope(for: request.entityName)

        var properties = request.propertiesToFetch
        if properties.isEmpty {
            properties = model.allAttributes(of: root.entity)
                .filter { !$0.isTransient && root.mapping.columns[$0.name]?.value != nil }
                .map { .keyPath($0.name) }
        }
        let groupNames = Set(request.propertiesToGroupBy.map(\.name))
        let groupsObject = request.propertiesToGroupBy.contains(where: Self.isEvaluatedObject)
        var selected: [SQLFragment] = []
        var columns: [Column] = []
        for property in properties {
            if !groupNames.isEmpty, case .keyPath(let path) = property, !groupNames.contains(path) {
                throw .typeMismatch(
                    expression: path, reason: "with propertiesToGroupBy, a fetched key path must be one of the grouped ones")
            }
            if !groupNames.isEmpty, Self.isEvaluatedObject(property), !groupsObject {
                throw .typeMismatch(
                    expression: "SELF", reason: "with propertiesToGroupBy, the evaluated object is fetched only when it is grouped by")
            }
            let (operand, type) = try column(property, compiler: &compiler, scope: root)
            selected.append(operand.fragment)
            columns.append(Column(name: property.name, type: type))
            if case .expression(let description) = property { compiler.namedExpressions[description.name] = operand }
        }
        // The row's object, of an entity with sub-entities, is named by the row's entity: one more column.
        let numbers = root.mapping.numbersIncludingSubentities
        if numbers.count > 1, properties.contains(where: Self.isEvaluatedObject) {
            let entities = Dictionary(
                numbers.compactMap { number in schema.entity(number: number).map { (Int64(number), $0.name) } },
                uniquingKeysWith: { first, _ in first })
            let type = ColumnType.rowObject(entityColumn: selected.count, entities: entities, fallback: root.entity.name)
            selected.append(SQLFragment(dialect.column(root.alias, "Z_ENT")))
            for (index, property) in properties.enumerated() where Self.isEvaluatedObject(property) { columns[index].type = type }
        }

        var conditions: [SQLFragment] = []
        if let filter = FetchSQLBuilder.entityFilter(
            root, includesSubentities: request.includesSubentities, schema: schema, dialect: dialect)
        {
            conditions.append(filter)
        }
        if let predicate = request.predicate {
            // Aggregates of rows belong in HAVING, not in the row condition.
            compiler.allowsRowAggregates = false
            conditions.append(try compiler.compile(predicate, in: root))
            compiler.allowsRowAggregates = true
        }
        var groups: [SQLFragment] = []
        for property in request.propertiesToGroupBy {
            groups.append(try column(property, compiler: &compiler, scope: root).0.fragment)
        }
        var having: SQLFragment?
        if let predicate = request.havingPredicate {
            guard !groups.isEmpty else {
                throw .unsupported("a HAVING predicate needs propertiesToGroupBy")
            }
            having = try compiler.compile(predicate, in: root)
        }
        let order = try FetchSQLBuilder.orderTerms(request.sortDescriptors, compiler: &compiler, scope: root)

        let distinct = request.returnsDistinctResults ? "DISTINCT " : ""
        var statement = SQLFragment.template(
            "SELECT \(distinct)% FROM \(dialect.identifier(root.mapping.tableName)) t0\(root.joinClause)",
            .joined(selected, separator: ", "))
        if !conditions.isEmpty {
            statement = SQLFragment.template("% WHERE %", statement, .joined(conditions, separator: " AND "))
        }
        if !groups.isEmpty { statement = SQLFragment.template("% GROUP BY %", statement, .joined(groups, separator: ", ")) }
        if let having { statement = SQLFragment.template("% HAVING %", statement, having) }
        if !order.isEmpty { statement = SQLFragment.template("% ORDER BY %", statement, .joined(order, separator: ", ")) }
        if request.hasWindow {
            statement = SQLFragment.template("% LIMIT % OFFSET %", statement, .bound(dialect.limitBinding), .bound(.offset))
        }
        return (statement, columns)
    }

    private func column(
        _ property: FetchedProperty, compiler: inout PredicateSQLCompiler, scope: PredicateSQLCompiler.Scope
    ) throws(PredicateSQLError) -> (PredicateSQLCompiler.Operand, ColumnType) {
        switch property {
        case .keyPath(let path):
            let operand = try compiler.operand(.keyPath(path), in: scope)
            return (operand, try type(ofKeyPath: path, from: scope.entity, operand: operand))
        case .expression(let description):
            let operand = try compiler.operand(description.expression, in: scope)
            // The evaluated object is the row's object ID, as in Core Data (not its primary key).
            if case .evaluatedObject = description.expression.kind { return (operand, .object(entity: scope.entity.name)) }
            if let declared = description.resultType, let type = Self.type(of: declared) { return (operand, type) }
            return (operand, Self.type(of: operand.kind))
        }
    }

    /// Whether a fetched property is the evaluated object (`SELF`, Core Data's `expressionForEvaluatedObject`).
    static func isEvaluatedObject(_ property: FetchedProperty) -> Bool {
        guard case .expression(let description) = property, case .evaluatedObject = description.expression.kind else { return false }
        return true
    }

    /// The type of the attribute a key path ends at, or the object a to-one relationship points to.
    private func type(
        ofKeyPath path: String, from entity: EntityDescription, operand: PredicateSQLCompiler.Operand
    ) throws(PredicateSQLError) -> ColumnType {
        var current = entity
        let keys = path.split(separator: ".").map(String.init)
        for (index, key) in keys.enumerated() {
            if let attribute = model.allAttributes(of: current).first(where: { $0.name == key }) {
                return Self.type(of: attribute.type) ?? Self.type(of: operand.kind)
            }
            guard let relationship = model.allRelationships(of: current).first(where: { $0.name == key }),
                let destination = model.entity(named: relationship.destinationEntityName)
            else { break }
            if index == keys.count - 1 { return .object(entity: destination.name) }
            current = destination
        }
        return Self.type(of: operand.kind)
    }

    package static func type(of attributeType: AttributeType) -> ColumnType? {
        switch attributeType {
        case .integer16, .integer32, .integer64: .integer
        case .double, .float: .double
        case .decimal: .decimal
        case .boolean: .bool
        case .string: .string
        case .date: .date
        case .binaryData, .transformable: .data
        case .uuid: .uuid
        case .uri: .uri
        case .objectID, .undefined, .composite: nil
        }
    }

    package static func type(of kind: ValueKind?) -> ColumnType {
        switch kind {
        case .number(let isInteger)?: isInteger ? .integer : .double
        case .string?: .string
        case .date?: .date
        case .data?: .data
        case .uuid?: .uuid
        case .uri?: .uri
        case .object?, nil: .integer
        }
    }
}
