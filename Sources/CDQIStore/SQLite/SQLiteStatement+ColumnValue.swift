import CDQIPredicate
import CSQLite
import Foundation

extension SQLiteStatement {
    /// A column read as the value kind it holds, or `.null`. Date and Decimal columns have NUMERIC
    /// affinity, so whole values come back as integers: every numeric read accepts both storage classes.
    func storedValue(_ index: Int, as type: DictionaryFetchSQLBuilder.ColumnType, storeIdentifier: String) -> StoredValue {
        if isNull(index) { return .null }
        switch type {
        case .integer: return storageClass(index) == SQLITE_FLOAT ? .double(double(index)) : .integer(int64(index))
        case .double: return .double(double(index))
        case .decimal: return .decimal(Decimal(string: "\(double(index))") ?? Decimal(double(index)))
        case .bool: return .bool(int64(index) != 0)
        case .string: return .string(string(index))
        case .date: return .date(secondsSinceReferenceDate: double(index))
        case .data: return .data(data(index))
        case .uuid:
            let bytes = data(index)
            guard bytes.count == 16 else { return .data(bytes) }
            return .uuid(bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) })
        case .uri:
            let text = string(index)
            return URL(string: text).map(StoredValue.uri) ?? .string(text)
        case .object(let entity):
            return .objectID(ObjectReference(entityName: entity, storeIdentifier: storeIdentifier, identity: .primaryKey(int64(index))))
        }
    }
}
