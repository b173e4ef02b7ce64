import CDQIModel
import CDQIPredicate

/// A result whose values stay in the engine's memory, read cell by cell by row and column (PostgreSQL's
/// `PGresult`): a store of another module hands its rows to the object graph as ``CellRow``s over it,
/// so that each value goes from the engine's cell into an object's slot, with no row of decoded values
/// in between.
///
/// A cell that does not decode (a type the store does not read, damaged bytes) reads as `.null`, and
/// the result keeps the error for the store to throw once the rows are read.
package protocol StoreCells: AnyObject {
    /// The value at `row`, `column` read as a value of an attribute of `type` (by the rules
    /// ``CellRow/attributeValue(converting:type:)`` applies to decoded values), or `.null`.
    func attributeValue(row: Int, column: Int, type: AttributeType) -> StoredValue
    /// The value at `row`, `column` as the engine's value (an integer, a double, text, bytes…), or `.null`.
    func cellValue(row: Int, column: Int) -> StoredValue
    /// The integer at `row`, `column`, or `nil` when it is NULL or no integer.
    func integer(row: Int, column: Int) -> Int64?
    /// The table the result's rows come from, when the store knows it (for messages).
    var tableName: String? { get }
}

/// One row of a ``StoreCells`` result, read in place: the result and a row index.
package struct CellRow: StoreRow {
    package let cells: any StoreCells
    /// The row read (0-based).
    package var row: Int

    package init(cells: any StoreCells, row: Int) {
        self.cells = cells
        self.row = row
    }

    package func attributeValue(_ index: Int, type: AttributeType) -> StoredValue {
        cells.attributeValue(row: row, column: index, type: type)
    }

    package func integer(_ index: Int) -> Int64? { cells.integer(row: row, column: index) }

    package func int64(_ index: Int) -> Int64 { cells.integer(row: row, column: index) ?? 0 }

    package func holdsInteger(_ index: Int) -> Bool {
        if case .integer = cells.cellValue(row: row, column: index) { return true }
        return false
    }

    package func describeValue(_ index: Int) -> String {
        switch cells.cellValue(row: row, column: index) {
        case .null: "NULL"
        case .integer(let integer): String(integer)
        case .double(let double): "\(double) (a real)"
        case .string(let string): "'\(string)' (text)"
        default: "a blob"
        }
    }

    package func tableName(ofColumn index: Int) -> String? { cells.tableName }

    /// A value decoded from the engine's cell (integers, doubles, text, bytes) as a value of an attribute
    /// of `type`, by the rules the SQLite store reads its columns with: what a ``StoreCells`` gives for
    /// the cells its fast paths do not cover.
    package static func attributeValue(converting value: StoredValue, type: AttributeType) -> StoredValue {
        ValueConversion.attributeValue(value, type: type)
    }
}

extension RowObjectReader {
    /// ``object(at:)`` for a row of cells, specialized here: a store in another module (the PostgreSQL
    /// store) calling the generic method would run it unspecialized, with a dynamic call per value and
    /// run-time generic metadata lookups.
    package mutating func object(atCells row: CellRow) throws(StoreError) -> (object: ManagedObject, isNew: Bool) {
        try object(at: row)
    }
}

extension StoredRow {
    /// ``decode(_:from:plan:)`` for a row of cells, specialized here (see ``RowObjectReader/object(atCells:)``).
    package static func decode(_ layout: EntityLayout, fromCells row: CellRow, plan: RowPlan) -> StoredRow {
        decode(layout, from: row, plan: plan)
    }
}
