import CDQIModel
import CDQIObjects
import CDQIPredicate

extension SQLiteStore {
    /// The SQL a request compiles to, its bindings, SQLite's query plan for it, and plain-words warnings:
    /// a filtered attribute of a table SQLite scans, or a sort SQLite does in a temporary tree, with the
    /// fetch index to add to the model; a comparison with a constant of another kind. Nothing is fetched.
    ///
    /// Dictionary requests (with `propertiesToFetch` or `propertiesToGroupBy`) are explained as the
    /// dictionary fetch runs them; others as the object fetch's row selection.
    public func explain(_ request: FetchRequest) throws -> FetchExplanation {
        let sql: String
        let bindings: [StoredValue]
        if request.propertiesToFetch.isEmpty && request.propertiesToGroupBy.isEmpty {
            (sql, bindings) = try self.sql(for: request)
        } else {
            let builder = DictionaryFetchSQLBuilder(model: model, schema: schema, storeIdentifier: metadata.uuid, dialect: .sqlite)
            let fragment = try builder.build(request).0
            sql = fragment.sql
            bindings = fragment.bindings.map { $0.resolve(constants: [], request: request) }
        }
        let plan = try queryPlan(sql: sql, bindings: bindings)
        var warnings = indexWarnings(request, plan: plan)
        if let predicate = request.predicate {
            warnings += MixedKindComparison.find(in: predicate, entityName: request.entityName, model: model).map(\.description)
        }
        return FetchExplanation(sql: sql, bindings: bindings, queryPlan: plan.map(\.text), warnings: warnings)
    }

    /// One line of `EXPLAIN QUERY PLAN`: its detail, indented by its depth.
    private struct PlanLine {
        var detail: String
        var depth: Int
        var text: String { String(repeating: "  ", count: depth) + detail }
    }

    private func queryPlan(sql: String, bindings: [StoredValue]) throws -> [PlanLine] {
        let statement = try connection.prepareUncached("EXPLAIN QUERY PLAN " + sql)
        try statement.bind(bindings)
        var depthOf: [Int64: Int] = [0: -1]
        var lines: [PlanLine] = []
        while try statement.step() {
            // Columns: id, parent, notused, detail.
            let id = statement.int64(0), parent = statement.int64(1)
            let depth = (depthOf[parent] ?? -1) + 1
            depthOf[id] = depth
            lines.append(PlanLine(detail: statement.string(3), depth: depth))
        }
        return lines
    }

    /// Warnings for the entity's table scanned while filtering on its attributes, and for a sort done in a
    /// temporary tree, naming the attributes no fetch index starts with.
    private func indexWarnings(_ request: FetchRequest, plan: [PlanLine]) -> [String] {
        guard let entity = model.entity(named: request.entityName),
            let table = schema.entities.first(where: { $0.name == entity.name })?.tableName
        else { return [] }
        // Fetch indexes of the entity and its ancestors (they share its table), by their first property.
        let indexed = Set((model.ancestors(of: entity) + [entity]).flatMap(\.fetchIndexes).compactMap { $0.elements.first?.property })
        var warnings: [String] = []
        // The root table is aliased t0 in every fetch the compiler writes.
        let scansTable = plan.contains { $0.detail == "SCAN t0" || $0.detail.hasPrefix("SCAN t0 ") }
        if scansTable, let predicate = request.predicate {
            let filtered = indexableAttributes(in: predicate, entity: entity).filter { !indexed.contains($0) }
            for attribute in filtered {
                warnings.append(
                    "the fetch reads every row of \(table) to filter on '\(attribute)': add a fetch index on "
                        + "\(entity.name).\(attribute) to the model (Xcode: the entity's Indexes; in the model file: "
                        + Self.fetchIndexXML(attribute) + ")")
            }
        }
        if plan.contains(where: { $0.detail.hasPrefix("USE TEMP B-TREE FOR") && $0.detail.contains("ORDER BY") }),
            let first = request.sortDescriptors.first, !first.keyPath.contains("."),
            model.allAttributes(of: entity).contains(where: { $0.name == first.keyPath }), !indexed.contains(first.keyPath)
        {
            warnings.append(
                "the fetch sorts every matching row of \(table) by '\(first.keyPath)' after reading them: a fetch "
                    + "index on \(entity.name).\(first.keyPath) lets SQLite read them in order (in the model file: "
                    + Self.fetchIndexXML(first.keyPath) + ")")
        }
        return warnings
    }

    private static func fetchIndexXML(_ attribute: String) -> String {
        let name = "by" + attribute.prefix(1).uppercased() + attribute.dropFirst()
        return "<fetchIndex name=\"\(name)\"><fetchIndexElement property=\"\(attribute)\" type=\"Binary\" order=\"ascending\"/></fetchIndex>"
    }

    /// The entity's own attributes the predicate compares with a plain operator an index can serve
    /// (`==`, `<`, `<=`, `>`, `>=`, `BETWEEN`, `IN`, no `[cd]` options), in order of appearance.
    private func indexableAttributes(in predicate: PredicateNode, entity: EntityDescription) -> [String] {
        let attributes = Set(model.allAttributes(of: entity).filter { !$0.isTransient }.map(\.name))
        var found: [String] = []
        func visit(_ node: PredicateNode) {
            switch node.kind {
            case .constant: return
            case .and(let parts), .or(let parts): parts.forEach(visit)
            case .not(let inner): visit(inner)
            case .comparison(let comparison):
                let indexable: Set<ComparisonOperator> = [
                    .equalTo, .lessThan, .lessThanOrEqual, .greaterThan,
                    .greaterThanOrEqual, .between, .in,
                ]
                guard comparison.modifier == .direct, comparison.options.isEmpty, indexable.contains(comparison.op) else { return }
                for side in [comparison.lhs, comparison.rhs] {
                    if case .keyPath(base: nil, let components) = side.kind, components.count == 1,
                        case .key(let key) = components[0], attributes.contains(key), !found.contains(key)
                    {
                        found.append(key)
                    }
                }
            }
        }
        visit(predicate)
        return found
    }
}
