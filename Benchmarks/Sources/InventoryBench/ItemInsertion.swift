import CSQLiteRaw
import Foundation

/// Writing one `InventoryData.Item` as a new item, the same way in every workload that inserts items:
/// through the typed entity class for ours, through a prepared `INSERT` on the C API for raw.
extension Item {
    /// Sets the new item's attributes to `values` (its category is the caller's: not every workload has one).
    func assign(_ values: InventoryData.Item) {
        active = values.active
        code = values.code
        createdAt = values.createdAt
        price = values.price
        quantity = values.quantity
        rank = values.rank
        score = values.score
        title = values.title
    }
}

/// The raw workloads' `INSERT INTO ZITEM`, whose first ten parameters ``OpaquePointer/bindItem(_:key:entity:)`` binds.
enum RawItemInsert {
    /// The statement; `withCategory` adds ZCATEGORY as the eleventh parameter.
    static func sql(withCategory: Bool) -> String {
        "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZACTIVE, ZCODE, ZCREATEDAT, ZPRICE, ZQUANTITY, ZRANK, ZSCORE, ZTITLE"
            + (withCategory ? ", ZCATEGORY" : "") + ") VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?" + (withCategory ? ", ?" : "") + ")"
    }
}

extension OpaquePointer {
    /// Binds primary key `key`, entity `entity` and `item`'s attributes to parameters 1 to 10 of a
    /// ``RawItemInsert`` statement.
    func bindItem(_ item: InventoryData.Item, key: Int64, entity: Int64) {
        sqlite3_bind_int64(self, 1, key)
        sqlite3_bind_int64(self, 2, entity)
        sqlite3_bind_int64(self, 3, item.active ? 1 : 0)
        bindText(item.code, at: 4)
        sqlite3_bind_double(self, 5, item.createdAt.timeIntervalSinceReferenceDate)
        sqlite3_bind_double(self, 6, item.price)
        sqlite3_bind_int64(self, 7, item.quantity)
        sqlite3_bind_int64(self, 8, Int64(item.rank))
        sqlite3_bind_int64(self, 9, Int64(item.score))
        bindText(item.title, at: 10)
    }
}
