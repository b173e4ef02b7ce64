import CDQIModel
import CDQIPredicate

/// The current row of a store's result, as the object graph reads it: whatever the engine, a row is
/// read by position, in the store's representation of Core Data's values (keys and entity numbers as
/// integers, dates as seconds since 2001-01-01, booleans as 0 and 1).
///
/// The code that turns rows into objects (``RowPlan``, ``RowObjectReader``) is generic over the row,
/// so that each store's rows are read without a dynamic call per value: the SQLite store passes its
/// statements, the PostgreSQL store rows of decoded values (``StoredValueRow``).
package protocol StoreRow {
    /// Column `index` read as a value of an attribute of `type`, or `.null`.
    func attributeValue(_ index: Int, type: AttributeType) -> StoredValue
    /// Column `index` as an integer, or `nil` when it is NULL.
    func integer(_ index: Int) -> Int64?
    /// Column `index` as an integer, 0 for NULL (keys, entity numbers and versions, never NULL in a
    /// store: one engine call where ``integer(_:)`` makes two).
    func int64(_ index: Int) -> Int64
    /// Whether column `index` holds an integer (not NULL, text, a real or bytes).
    func holdsInteger(_ index: Int) -> Bool
    /// Column `index` described for a message: `999`, `NULL`, `'x' (text)`.
    func describeValue(_ index: Int) -> String
    /// The table column `index` was read from, when the engine knows it.
    func tableName(ofColumn index: Int) -> String?
}

/// Where a statement's parameters are bound, by position from 1: a prepared SQLite statement, or the
/// parameter list of a PostgreSQL statement.
package protocol StoreParameters {
    mutating func bind(_ value: StoredValue, at position: Int) throws
}

/// A row of values already decoded from the engine's format (a PostgreSQL result row).
package struct StoredValueRow: StoreRow {
    package var values: [StoredValue]
    package var table: String?

    package init(values: [StoredValue], table: String? = nil) {
        self.values = values
        self.table = table
    }

    private func value(_ index: Int) -> StoredValue { index >= 0 && index < values.count ? values[index] : .null }

    package func attributeValue(_ index: Int, type: AttributeType) -> StoredValue {
        ValueConversion.attributeValue(value(index), type: type)
    }

    package func integer(_ index: Int) -> Int64? {
        switch value(index) {
        case .integer(let integer): integer
        case .bool(let bool): bool ? 1 : 0
        case .double(let double): Int64(exactly: double)
        default: nil
        }
    }

    package func int64(_ index: Int) -> Int64 { integer(index) ?? 0 }

    package func holdsInteger(_ index: Int) -> Bool {
        if case .integer = value(index) { return true }
        return false
    }

    package func describeValue(_ index: Int) -> String {
        switch value(index) {
        case .null: "NULL"
        case .integer(let integer): String(integer)
        case .double(let double): "\(double) (a real)"
        case .string(let string): "'\(string)' (text)"
        default: "a blob"
        }
    }

    package func tableName(ofColumn index: Int) -> String? { table }
}

/// A list of parameter values bound by position (1 is the first).
package struct StoredValueParameters: StoreParameters {
    package var values: [StoredValue] = []

    package init() {}

    package mutating func bind(_ value: StoredValue, at position: Int) throws {
        guard position >= 1 else { return }
        while values.count < position { values.append(.null) }
        values[position - 1] = value
    }
}

extension RowObjectReader {
    /// ``object(at:)`` for a row of decoded values, specialized here: a store in another module (the
    /// PostgreSQL store) calling the generic method would run it unspecialized, with a dynamic call per
    /// value and run-time generic metadata lookups.
    package mutating func object(atDecoded row: StoredValueRow) throws(StoreError) -> (object: ManagedObject, isNew: Bool) {
        try object(at: row)
    }
}

extension StoredRow {
    /// ``decode(_:from:plan:)`` for a row of decoded values, specialized here (see
    /// ``RowObjectReader/object(atDecoded:)``).
    package static func decode(_ layout: EntityLayout, fromDecoded row: StoredValueRow, plan: RowPlan) -> StoredRow {
        decode(layout, from: row, plan: plan)
    }
}
