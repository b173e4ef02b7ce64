/// The statement that reads the members of a to-many relationship for some owners, as whole rows of
/// the destination's table (`Z_ENT, Z_PK` first), in the relationship's order.
///
/// Owners are matched by their primary keys, bound in order (`= ?` for one, `IN (?, …)` for several).
/// Through a join table the owner's key is selected after the row; through the inverse to-one it is the
/// row's own foreign key (``ownerKey(in:)`` reads either).
struct ToManyQuery {
    let sql: String
    /// Where each row holds its owner's primary key.
    private let ownerPosition: Int

    /// `nil` when the relationship has neither a join table nor an inverse to-one to read through.
    init?(_ relationship: RelationshipSlot, destination: EntityLayout, ownerCount: Int) {
        let owners = ownerCount == 1 ? "= ?" : "IN (" + SQLText.placeholders(ownerCount) + ")"
        if let join = relationship.join {
            var text =
                "SELECT \(destination.tableColumnsSQL), t1.\(join.ownColumn) FROM \(join.table.name) t1"
                + " JOIN \(destination.tableName) t0 ON t0.Z_PK = t1.\(join.otherColumn) WHERE t1.\(join.ownColumn) \(owners)"
            if relationship.isOrdered, let order = join.table.orderColumn { text += " ORDER BY t1.\(order), t0.Z_PK" }
            sql = text
            ownerPosition = destination.tableColumnCount
        } else if let inverseName = relationship.description.inverseName,
            let inverse = destination.relationship(named: inverseName), let foreignKey = inverse.columns.value,
            let position = destination.tableColumnPositions[foreignKey]
        {
            let numbers = destination.numbersIncludingSubentities
            var text =
                "SELECT \(destination.tableColumnsSQL) FROM \(destination.tableName) t0 WHERE t0.\(foreignKey) \(owners)"
                + " AND t0.Z_ENT BETWEEN \(numbers.min() ?? destination.number) AND \(numbers.max() ?? destination.number)"
            if let order = inverse.columns.order { text += " ORDER BY t0.\(order), t0.Z_PK" }
            sql = text
            ownerPosition = position
        } else {
            return nil
        }
    }

    /// The owner of the statement's current row.
    func ownerKey(in statement: SQLiteStatement) -> Int64? {
        statement.isNull(ownerPosition) ? nil : statement.int64(ownerPosition)
    }
}
