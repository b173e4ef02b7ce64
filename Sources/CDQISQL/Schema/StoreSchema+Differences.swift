import CDQIModel

extension StoreSchema {
    /// How an entity's stored properties in the model differ from the columns its table has in a store:
    /// properties with no column, columns of another type, and columns no property of the model has.
    /// Each store reads its own catalog; this is the comparison they share.
    ///
    /// - Parameters:
    ///   - storedColumns: the table's columns in the store, name to type, as the store names types.
    ///   - columnType: the store's name for a type of this schema (SQLite's, by default).
    /// - Returns: the differences, or one line saying that only an option changed when the columns agree.
    package func propertyDifferences(
        of entityName: String, model: ManagedObjectModel, storedColumns stored: [String: String],
        columnType: (String) -> String = { $0 }
    ) -> [String] {
        guard let mapping = entity(named: entityName), let entity = model.entity(named: entityName),
            let table = table(named: mapping.tableName)
        else { return [] }
        let declared = Dictionary(table.columns.map { ($0.name, columnType($0.type)) }, uniquingKeysWith: { first, _ in first })
        var details: [String] = []
        let properties =
            model.allAttributes(of: entity).filter { !$0.isTransient }.map(\.name)
            + model.allRelationships(of: entity).filter { !$0.isTransient && !$0.isToMany }.map(\.name)
        for property in properties.sorted() {
            guard let column = mapping.columns[property]?.value else { continue }
            guard let type = stored[column] else {
                details.append("property '\(property)' is in the model but not in the store (no column \(column))")
                continue
            }
            if let expected = declared[column], expected != type {
                details.append("property '\(property)' is \(expected) in the model and \(type) in the store (column \(column))")
            }
        }
        let known = Set(table.columns.map(\.name)).union(["Z_PK", "Z_ENT", "Z_OPT"])
        for column in stored.keys.sorted() where !known.contains(column) {
            details.append("the store has column \(column), which no property of the model has")
        }
        if details.isEmpty {
            details.append(
                "its properties have the same columns; an option changed (optionality, a default, a "
                    + "version hash modifier, a uniqueness constraint, …)")
        }
        return details
    }
}
