/// An item as the hand-written contenders (libpq, postgres-nio, our driver) read it: every column into a
/// Swift value, as `RawItem` does in the SQLite benchmarks.
public struct ItemRecord: Sendable {
    public var id: Int64
    public var entity: Int64
    public var version: Int64
    public var active: Bool
    public var code: String
    public var createdAt: Double
    public var price: Double
    public var quantity: Int64
    public var rank: Int16
    public var score: Int32
    public var title: String
    public var category: Int64?

    /// The columns every read selects, in this order (Core Data's names, quoted).
    public static let columns =
        #""Z_PK", "Z_ENT", "Z_OPT", "ZACTIVE", "ZCODE", "ZCREATEDAT", "ZPRICE", "ZQUANTITY", "ZRANK", "ZSCORE", "ZTITLE", "ZCATEGORY""#

}

extension Array: ItemRows where Element == ItemRecord {
    public func checksum() -> ItemChecksum {
        var sum = ItemChecksum()
        for item in self {
            sum.add(
                key: item.id, entity: item.entity, version: item.version, active: item.active, code: item.code,
                createdAt: item.createdAt, price: item.price, quantity: item.quantity, rank: Int64(item.rank),
                score: Int64(item.score), title: item.title, category: item.category)
        }
        return sum
    }
}
