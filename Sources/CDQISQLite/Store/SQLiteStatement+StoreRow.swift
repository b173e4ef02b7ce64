import CDQIModel
import CDQIObjects
import CDQIPredicate
import CSQLite
import Foundation

extension SQLiteStatement: StoreRow {
    /// Reads column `index` of the current row as a value of an attribute of `type`, the way Core Data
    /// stores each type (what `ValueConversion` converts from other engines' values by the same rules).
    @usableFromInline package func attributeValue(_ index: Int, type: AttributeType) -> StoredValue {
        guard let value = value(index) else { return .null }
        if type == .string { return value.optionalString.map(StoredValue.string) ?? .null }
        let storage = value.storageClass
        if storage == SQLITE_NULL { return .null }
        switch type {
        case .integer16, .integer32, .integer64:
            if storage == SQLITE_INTEGER { return .integer(value.int64) }
            // A REAL (or text) in an integer column, from a store written elsewhere: keep it unless it
            // is a whole number that fits.
            let double = value.double
            return Int64(exactly: double).map(StoredValue.integer) ?? .double(double)
        case .boolean:
            return .bool(value.int64 != 0)
        case .date:
            return .date(secondsSinceReferenceDate: value.double)
        case .double, .float:
            return .double(value.double)
        case .decimal:
            let double = value.double
            return .decimal(Decimal(string: String(double)) ?? Decimal(double))
        case .string:
            return .string(value.string)
        case .uri:
            let text = value.string
            return URL(string: text).map(StoredValue.uri) ?? .string(text)
        case .uuid:
            let data = value.data
            if data.count == 16 {
                let bytes = Array(data)
                return .uuid(
                    UUID(
                        uuid: (
                            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                        )))
            }
            return UUID(uuidString: value.string).map(StoredValue.uuid) ?? .data(data)
        case .binaryData, .transformable:
            return .data(value.data)
        case .objectID:
            return ObjectReference(uriString: value.string).map(StoredValue.objectID) ?? .null
        case .undefined, .composite:
            return .null
        }
    }

    @usableFromInline package func integer(_ index: Int) -> Int64? {
        storageClass(index) == SQLITE_NULL ? nil : int64(index)
    }

    @usableFromInline package func holdsInteger(_ index: Int) -> Bool { storageClass(index) == SQLITE_INTEGER }

    @usableFromInline package func describeValue(_ index: Int) -> String {
        switch storageClass(index) {
        case SQLITE_INTEGER: String(int64(index))
        case SQLITE_NULL: "NULL"
        case SQLITE_FLOAT: "\(double(index)) (a real)"
        case SQLITE_TEXT: "'\(string(index))' (text)"
        default: "a blob"
        }
    }
}

extension SQLiteStatement: StoreParameters {}
