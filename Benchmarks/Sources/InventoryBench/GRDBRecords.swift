import Foundation
import GRDB

/// An item as GRDB's documentation recommends: a Codable record, its columns named by its coding keys.
struct GRDBItem: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "ZITEM"
    var id: Int64
    var entity: Int64
    var version: Int64
    var active: Bool
    var code: String
    var createdAt: Date
    var price: Double
    var quantity: Int64
    var rank: Int16
    var score: Int32
    var title: String
    var category: Int64?

    enum CodingKeys: String, CodingKey {
        case id = "Z_PK", entity = "Z_ENT", version = "Z_OPT", active = "ZACTIVE", code = "ZCODE"
        case createdAt = "ZCREATEDAT", price = "ZPRICE", quantity = "ZQUANTITY", rank = "ZRANK", score = "ZSCORE"
        case title = "ZTITLE", category = "ZCATEGORY"
    }

    enum Columns {
        static let code = Column(CodingKeys.code)
        static let title = Column(CodingKeys.title)
    }

    /// Core Data's dates: seconds since 2001 as REAL.
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        .timeIntervalSinceReferenceDate
    }

    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        .timeIntervalSinceReferenceDate
    }
}

/// The same item with GRDB's hand-written conformances: `init(row:)` reading columns by position
/// (from an explicit selection) and `encode(to:)` writing a container; GRDB's fastest record path.
struct GRDBItemRow: FetchableRecord, PersistableRecord {
    static let databaseTableName = "ZITEM"
    static var databaseSelection: [any SQLSelectable] {
        [
            Column("Z_PK"), Column("Z_ENT"), Column("Z_OPT"), Column("ZACTIVE"), Column("ZCODE"), Column("ZCREATEDAT"),
            Column("ZPRICE"), Column("ZQUANTITY"), Column("ZRANK"), Column("ZSCORE"), Column("ZTITLE"), Column("ZCATEGORY"),
        ]
    }
    var id: Int64
    var entity: Int64
    var version: Int64
    var active: Bool
    var code: String
    var createdAt: Date
    var price: Double
    var quantity: Int64
    var rank: Int16
    var score: Int32
    var title: String
    var category: Int64?

    init(id: Int64, entity: Int64, values: InventoryData.Item) {
        self.id = id
        self.entity = entity
        version = 1
        active = values.active
        code = values.code
        createdAt = values.createdAt
        price = values.price
        quantity = values.quantity
        rank = values.rank
        score = values.score
        title = values.title
        category = Int64(values.category + 1)
    }

    init(row: Row) throws {
        id = row[0]
        entity = row[1]
        version = row[2]
        active = row[3]
        code = row[4]
        createdAt = Date(timeIntervalSinceReferenceDate: row[5])
        price = row[6]
        quantity = row[7]
        rank = row[8]
        score = row[9]
        title = row[10]
        category = row[11]
    }

    func encode(to container: inout PersistenceContainer) throws {
        container["Z_PK"] = id
        container["Z_ENT"] = entity
        container["Z_OPT"] = version
        container["ZACTIVE"] = active
        container["ZCODE"] = code
        container["ZCREATEDAT"] = createdAt.timeIntervalSinceReferenceDate
        container["ZPRICE"] = price
        container["ZQUANTITY"] = quantity
        container["ZRANK"] = rank
        container["ZSCORE"] = score
        container["ZTITLE"] = title
        container["ZCATEGORY"] = category
    }
}

extension GRDBItem {
    init(id: Int64, entity: Int64, values: InventoryData.Item) {
        self.id = id
        self.entity = entity
        version = 1
        active = values.active
        code = values.code
        createdAt = values.createdAt
        price = values.price
        quantity = values.quantity
        rank = values.rank
        score = values.score
        title = values.title
        category = Int64(values.category + 1)
    }
}

/// A row of the grouped aggregate, Codable.
struct GRDBCategoryStats: Decodable, FetchableRecord {
    var name: String?
    var count: Int
    var total: Int64
    var averagePrice: Double
    var maxScore: Int64
}

/// The same row, hand-written.
struct GRDBCategoryStatsRow: FetchableRecord {
    var name: String?
    var count: Int
    var total: Int64
    var averagePrice: Double
    var maxScore: Int64

    init(row: Row) throws {
        name = row[0]
        count = row[1]
        total = row[2]
        averagePrice = row[3]
        maxScore = row[4]
    }
}
