import CDQIPredicate
import CDQISQL
import Foundation

extension SQLiteStatement {
    /// Binds a value as Core Data stores it: dates as REAL seconds since 2001-01-01, booleans as 0/1,
    /// decimals as the nearest double, UUIDs as their 16 bytes, URIs as their absolute string.
    public func bind(_ value: StoredValue, at index: Int) throws(SQLiteError) {
        switch value {
        case .null: try bindNull(index)
        case .integer(let integer): try bind(integer, at: index)
        case .double(let double): try bind(double, at: index)
        case .decimal(let decimal): try bind(StoredValue.decimalAsDouble(decimal), at: index)
        case .string(let string): try bind(string, at: index)
        case .bool(let flag): try bind(Int64(flag ? 1 : 0), at: index)
        case .date(let seconds): try bind(seconds, at: index)
        case .data(let data): try bind(data, at: index)
        case .uuid(let uuid): try bind(withUnsafeBytes(of: uuid.uuid) { Data($0) }, at: index)
        case .uri(let url): try bind(url.absoluteString, at: index)
        case .objectID(let reference):
            guard case .primaryKey(let key) = reference.identity else { return try bindNull(index) }
            try bind(key, at: index)
        }
    }

    /// Binds values to the placeholders 1, 2, … in order.
    public func bind(_ values: [StoredValue]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() { try bind(value, at: offset + 1) }
    }
}
