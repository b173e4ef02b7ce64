import CDQIObjects
import CDQIPredicate
import CSQLite
import Foundation

extension SQLiteStatement {
    /// A column read as the value kind it holds, or `.null`. Date and Decimal columns have NUMERIC
    /// affinity, so whole values come back as integers: every numeric read accepts both storage classes.
    func storedValue(_ index: Int, as type: DictionaryFetchSQLBuilder.ColumnType, storeIdentifier: String) -> StoredValue {
        guard let value = value(index), value.storageClass != SQLITE_NULL else { return .null }
        switch type {
        case .integer: return value.storageClass == SQLITE_FLOAT ? .double(value.double) : .integer(value.int64)
        case .double: return .double(value.double)
        case .decimal: return .decimal(Decimal(string: "\(value.double)") ?? Decimal(value.double))
        case .bool: return .bool(value.int64 != 0)
        case .string: return .string(value.string)
        case .date: return .date(secondsSinceReferenceDate: value.double)
        case .data: return .data(value.data)
        case .uuid:
            let bytes = value.data
            guard bytes.count == 16 else { return .data(bytes) }
            return .uuid(bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) })
        case .uri:
            let text = value.string
            return URL(string: text).map(StoredValue.uri) ?? .string(text)
        case .object(let entity):
            return .objectID(ObjectReference(entityName: entity, storeIdentifier: storeIdentifier, identity: .primaryKey(value.int64)))
        case .rowObject(let entityColumn, let entities, let fallback):
            let entity = self.value(entityColumn).flatMap { entities[$0.int64] } ?? fallback
            return .objectID(ObjectReference(entityName: entity, storeIdentifier: storeIdentifier, identity: .primaryKey(value.int64)))
        }
    }
}
