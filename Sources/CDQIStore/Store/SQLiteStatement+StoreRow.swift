import CDQIModel
import CDQIPredicate
import CSQLite

extension SQLiteStatement: StoreRow {
    package func attributeValue(_ index: Int, type: AttributeType) -> StoredValue {
        ValueConversion.read(self, at: index, type: type)
    }

    package func integer(_ index: Int) -> Int64? {
        storageClass(index) == SQLITE_NULL ? nil : int64(index)
    }

    package func holdsInteger(_ index: Int) -> Bool { storageClass(index) == SQLITE_INTEGER }

    package func describeValue(_ index: Int) -> String {
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
