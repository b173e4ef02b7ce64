import CDQIModel
import CDQIPredicate

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
