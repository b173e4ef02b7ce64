import CDQIPredicate

/// The result of a store query: named columns and rows of values.
public struct ResultTable: Sendable, Hashable {
    /// The column names, in order.
    public var columns: [String]
    /// The rows; each has one value per column (``CDQIPredicate/StoredValue/null`` for none).
    public var rows: [[StoredValue]]

    /// Creates a table.
    public init(columns: [String], rows: [[StoredValue]]) {
        self.columns = columns
        self.rows = rows
    }
}
