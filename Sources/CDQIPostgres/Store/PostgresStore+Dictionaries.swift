import CDQIObjects
import CDQIPredicate
import Foundation

extension PostgresStore {
    /// A dictionary fetch: one dictionary per row (or per group), keyed by the names of the fetched
    /// properties, a NULL value without a key, as the SQLite store gives them.
    package func fetchDictionaries(_ request: FetchRequest) throws -> [[String: StoredValue]] {
        let builder = DictionaryFetchSQLBuilder(model: model, schema: schema, storeIdentifier: metadata.uuid, dialect: .postgres)
        let (fragment, columns) = try builder.build(request)
        let sql = SQLDialect.postgres.statementText(fragment)
        let parameters = fragment.bindings.map { $0.resolve(constants: [], request: request) }
        return try withConnection { connection in
            let result = try connection.query(sql, parameters)
            var rows: [[String: StoredValue]] = []
            rows.reserveCapacity(result.rowCount)
            for index in 0..<result.rowCount {
                let values = try result.row(index)
                var row: [String: StoredValue] = [:]
                for (position, column) in columns.enumerated() where position < values.count {
                    let value = Self.dictionaryValue(values[position], as: column.type, in: values, storeIdentifier: metadata.uuid)
                    if !value.isNull { row[column.name] = value }
                }
                rows.append(row)
            }
            return rows
        }
    }

    /// A decoded column as the value kind the dictionary fetch gives it (as the SQLite store reads its
    /// columns: dates as seconds, booleans as 0 and 1, UUIDs as their 16 bytes, objects by key).
    static func dictionaryValue(
        _ value: StoredValue, as type: DictionaryFetchSQLBuilder.ColumnType, in row: [StoredValue], storeIdentifier: String
    ) -> StoredValue {
        if value.isNull { return .null }
        func double() -> Double? {
            switch value {
            case .double(let double): double
            case .integer(let integer): Double(integer)
            case .decimal(let decimal): NSDecimalNumber(decimal: decimal).doubleValue
            default: nil
            }
        }
        func integer() -> Int64? {
            switch value {
            case .integer(let integer): integer
            case .bool(let bool): bool ? 1 : 0
            case .double(let double): Int64(exactly: double)
            default: nil
            }
        }
        switch type {
        case .integer:
            if case .double = value { return value }
            // PostgreSQL sums integers as numeric; SQLite as an integer.
            if case .decimal(let decimal) = value {
                if let whole = Int64(exactly: NSDecimalNumber(decimal: decimal).doubleValue),
                    Decimal(whole) == decimal
                {
                    return .integer(whole)
                }
                return .double(NSDecimalNumber(decimal: decimal).doubleValue)
            }
            return integer().map(StoredValue.integer) ?? value
        case .double: return double().map(StoredValue.double) ?? value
        case .decimal: return double().map { .decimal(Decimal(string: "\($0)") ?? Decimal($0)) } ?? value
        case .bool: return integer().map { .bool($0 != 0) } ?? value
        case .string: return value
        case .date: return double().map { .date(secondsSinceReferenceDate: $0) } ?? value
        case .data: return value
        case .uuid:
            guard case .data(let bytes) = value, bytes.count == 16 else { return value }
            return .uuid(bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) })
        case .uri:
            guard case .string(let text) = value else { return value }
            return URL(string: text).map(StoredValue.uri) ?? .string(text)
        case .object(let entity):
            guard let key = integer() else { return value }
            return .objectID(ObjectReference(entityName: entity, storeIdentifier: storeIdentifier, identity: .primaryKey(key)))
        case .rowObject(let entityColumn, let entities, let fallback):
            guard let key = integer() else { return value }
            var entity = fallback
            if entityColumn < row.count, case .integer(let number) = row[entityColumn], let name = entities[number] {
                entity = name
            }
            return .objectID(ObjectReference(entityName: entity, storeIdentifier: storeIdentifier, identity: .primaryKey(key)))
        }
    }
}
