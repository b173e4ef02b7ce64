import FluentKit

/// Item as a Fluent model over the layout's `ZITEM`, its fields in the columns' own types (the layout
/// stores booleans as `bigint` 0/1 and dates as `double precision` seconds since 2001, as Core Data's
/// SQLite layout does; a `Bool` or `Date` field would not bind to those columns).
public final class FluentItem: Model, @unchecked Sendable {
    public static let schema = "ZITEM"

    @ID(custom: "Z_PK", generatedBy: .user) public var id: Int64?
    @Field(key: "Z_ENT") var entity: Int64
    @Field(key: "Z_OPT") var version: Int64
    @Field(key: "ZACTIVE") var active: Int64
    @Field(key: "ZCODE") var code: String
    @Field(key: "ZCREATEDAT") var createdAt: Double
    @Field(key: "ZPRICE") var price: Double
    @Field(key: "ZQUANTITY") var quantity: Int64
    @Field(key: "ZRANK") var rank: Int64
    @Field(key: "ZSCORE") var score: Int64
    @Field(key: "ZTITLE") var title: String
    @OptionalParent(key: "ZCATEGORY") var category: FluentCategory?

    public init() {}

    /// Item `i` of ``InventoryData`` under primary key `key`.
    init(index i: Int, key: Int64, entity: Int64) {
        let item = InventoryData.item(i)
        id = key
        self.entity = entity
        version = 1
        active = item.active ? 1 : 0
        code = item.code
        createdAt = item.createdAt.timeIntervalSinceReferenceDate
        price = item.price
        quantity = item.quantity
        rank = Int64(item.rank)
        score = Int64(item.score)
        title = item.title
        $category.id = Int64(item.category + 1)
    }
}

/// Category as a Fluent model over the layout's `ZCATEGORY` (the destination of ``FluentItem``'s parent).
public final class FluentCategory: Model, @unchecked Sendable {
    public static let schema = "ZCATEGORY"

    @ID(custom: "Z_PK", generatedBy: .user) public var id: Int64?
    @Field(key: "ZNAME") var name: String

    public init() {}
}

/// Fluent models a run returned. `written` marks W7's, whose quantity and version the run raised by
/// one after reading them: the checksum takes the values as read, to compare with the other contenders'.
struct FluentItems: ItemRows {
    var items: [FluentItem]
    var written = false

    func checksum() -> ItemChecksum {
        var sum = ItemChecksum()
        let undo: Int64 = written ? 1 : 0
        for item in items {
            sum.add(
                key: item.id ?? -1, entity: item.entity, version: item.version - undo, active: item.active != 0,
                code: item.code, createdAt: item.createdAt, price: item.price, quantity: item.quantity - undo,
                rank: item.rank, score: item.score, title: item.title, category: item.$category.id)
        }
        return sum
    }
}
