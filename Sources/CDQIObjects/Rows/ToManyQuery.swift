/// The statement that reads the members of a to-many relationship for some owners, as whole rows of
/// the destination's table (`Z_ENT, Z_PK` first), in the relationship's order, in a store's dialect.
///
/// Owners are matched by their primary keys, bound in order (`= ?` for one, `IN (?, …)` for several).
/// Through a join table the owner's key is selected after the row; through the inverse to-one it is the
/// row's own foreign key (``KeyedRowQuery/ownerPosition`` says where).
enum ToManyQuery {
    /// `nil` when the relationship has neither a join table nor an inverse to-one to read through.
    static func make(
        _ relationship: RelationshipSlot, destination: EntityLayout, ownerCount: Int, dialect: SQLDialect
    ) -> KeyedRowQuery? {
        let owners = ownerCount == 1 ? "= " + dialect.keyPlaceholder(1) : "IN (" + dialect.keyPlaceholders(ownerCount) + ")"
        let columns = destination.tableColumnsSQL(dialect)
        let id = dialect.identifier
        if let join = relationship.join {
            var text =
                "SELECT \(columns), \(dialect.column("t1", join.ownColumn)) FROM \(id(join.table.name)) t1"
                + " JOIN \(id(destination.tableName)) t0 ON \(dialect.column("t0", "Z_PK")) = \(dialect.column("t1", join.otherColumn))"
                + " WHERE \(dialect.column("t1", join.ownColumn)) \(owners)"
            if relationship.isOrdered, let order = join.table.orderColumn {
                text += " ORDER BY \(dialect.column("t1", order)), \(dialect.column("t0", "Z_PK"))"
            }
            return KeyedRowQuery(sql: text, ownerPosition: destination.tableColumnCount)
        } else if let inverseName = relationship.description.inverseName,
            let inverse = destination.relationship(named: inverseName), let foreignKey = inverse.columns.value,
            let position = destination.tableColumnPositions[foreignKey]
        {
            let numbers = destination.numbersIncludingSubentities
            var text =
                "SELECT \(columns) FROM \(id(destination.tableName)) t0 WHERE \(dialect.column("t0", foreignKey)) \(owners)"
                + " AND \(dialect.column("t0", "Z_ENT")) BETWEEN \(numbers.min() ?? destination.number)"
                + " AND \(numbers.max() ?? destination.number)"
            if let order = inverse.columns.order {
                text += " ORDER BY \(dialect.column("t0", order)), \(dialect.column("t0", "Z_PK"))"
            }
            return KeyedRowQuery(sql: text, ownerPosition: position)
        }
        return nil
    }

    /// The whole rows of `layout`'s table with the given keys (`count` of them, bound in order).
    static func rows(of layout: EntityLayout, keyCount: Int, dialect: SQLDialect) -> KeyedRowQuery {
        KeyedRowQuery(
            sql: "SELECT \(layout.tableColumnsSQL(dialect)) FROM \(dialect.identifier(layout.tableName)) t0 WHERE "
                + "\(dialect.column("t0", "Z_PK")) IN (\(dialect.keyPlaceholders(keyCount)))")
    }
}
