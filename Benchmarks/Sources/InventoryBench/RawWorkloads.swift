import CSQLiteRaw
import Foundation

/// An item as the hand-written baseline reads it: every column into a Swift value.
struct RawItem {
    var id: Int64
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

    static let columns = "t0.Z_PK, t0.Z_OPT, t0.ZACTIVE, t0.ZCODE, t0.ZCREATEDAT, t0.ZPRICE, t0.ZQUANTITY, t0.ZRANK, t0.ZSCORE, t0.ZTITLE, t0.ZCATEGORY"

    /// Reads the current row of a statement that selects ``columns`` first.
    init(_ s: OpaquePointer) {
        id = sqlite3_column_int64(s, 0)
        version = sqlite3_column_int64(s, 1)
        active = sqlite3_column_int64(s, 2) != 0
        code = s.text(3)
        createdAt = Date(timeIntervalSinceReferenceDate: sqlite3_column_double(s, 4))
        price = sqlite3_column_double(s, 5)
        quantity = sqlite3_column_int64(s, 6)
        rank = Int16(truncatingIfNeeded: sqlite3_column_int64(s, 7))
        score = Int32(truncatingIfNeeded: sqlite3_column_int64(s, 8))
        title = s.text(9)
        category = sqlite3_column_type(s, 10) == SQLITE_NULL ? nil : sqlite3_column_int64(s, 10)
    }
}

/// A row of the grouped aggregate.
struct RawCategoryStats {
    var name: String?
    var count: Int
    var total: Int64
    var averagePrice: Double
    var maxScore: Int64
}

/// The workloads written against the SQLite C API by hand: one prepared statement per workload,
/// `sqlite3_column_*` straight into Swift values.
public final class RawWorkloads {
    let fixture: InventoryFixture
    let db: RawSQLite
    private var insertDB: RawSQLite?

    public init(fixture: InventoryFixture) throws {
        self.fixture = fixture
        db = try RawSQLite(path: fixture.populatedURL.path)
    }

    /// W1: one transaction, one prepared INSERT, primary keys taken from Z_PRIMARYKEY as Core Data does.
    public func insert(count: Int) -> Contender {
        Contender(
            .raw,
            prepare: { [self] in
                insertDB = nil
                insertDB = try RawSQLite(path: try fixture.freshStore(named: "raw-insert.sqlite").path)
            },
            run: { [self] in
                guard let db = insertDB else { return 0 }
                try db.exec("BEGIN IMMEDIATE")
                let maxKey = try db.prepare("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?")
                sqlite3_bind_int64(maxKey.handle, 1, fixture.itemEntity)
                guard sqlite3_step(maxKey.handle) == SQLITE_ROW else { throw RawSQLite.Failure(description: "no Z_MAX") }
                let first = sqlite3_column_int64(maxKey.handle, 0) + 1
                sqlite3_reset(maxKey.handle)
                let insert = try db.prepare(RawItemInsert.sql(withCategory: true))
                let s = insert.handle
                for i in 0..<count {
                    let item = InventoryData.item(i)
                    s.bindItem(item, key: first + Int64(i), entity: fixture.itemEntity)
                    sqlite3_bind_int64(s, 11, Int64(item.category + 1))
                    try db.check(sqlite3_step(s))
                    sqlite3_reset(s)
                }
                let update = try db.prepare("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?")
                sqlite3_bind_int64(update.handle, 1, first + Int64(count) - 1)
                sqlite3_bind_int64(update.handle, 2, fixture.itemEntity)
                try db.check(sqlite3_step(update.handle))
                try db.exec("COMMIT")
                return count
            })
    }

    /// W2: every item into a Swift struct.
    public func fetchAll() -> Contender {
        Contender(
            .raw,
            run: { [self] in
                let statement = try db.prepare("SELECT \(RawItem.columns) FROM ZITEM t0")
                var items: [RawItem] = []
                while sqlite3_step(statement.handle) == SQLITE_ROW { items.append(RawItem(statement.handle)) }
                return items.count
            })
    }

    /// W3: one prepared statement, bound and reset per lookup.
    public func lookups(codes: [String]) -> Contender {
        Contender(
            .raw,
            run: { [self] in
                let statement = try db.prepare("SELECT \(RawItem.columns) FROM ZITEM t0 WHERE t0.ZCODE = ? LIMIT 1")
                let s = statement.handle
                var found = 0
                for code in codes {
                    s.bindText(code, at: 1)
                    if sqlite3_step(s) == SQLITE_ROW {
                        let item = RawItem(s)
                        if item.code == code { found += 1 }
                    }
                    sqlite3_reset(s)
                }
                return found
            })
    }

    /// W4: `COUNT(*)` over a range of the indexed code.
    public func counts(ranges: [(String, String)]) -> Contender {
        Contender(
            .raw,
            run: { [self] in
                let statement = try db.prepare("SELECT COUNT(*) FROM ZITEM WHERE ZCODE >= ? AND ZCODE < ?")
                let s = statement.handle
                var total = 0
                for (low, high) in ranges {
                    s.bindText(low, at: 1)
                    s.bindText(high, at: 2)
                    if sqlite3_step(s) == SQLITE_ROW { total += Int(sqlite3_column_int64(s, 0)) }
                    sqlite3_reset(s)
                }
                return total
            })
    }

    static let groupedSQL = """
        SELECT c.ZNAME, COUNT(t0.ZCODE), SUM(t0.ZQUANTITY), AVG(t0.ZPRICE), MAX(t0.ZSCORE)
        FROM ZITEM t0 LEFT JOIN ZCATEGORY c ON c.Z_PK = t0.ZCATEGORY GROUP BY c.ZNAME
        """

    /// W5: the grouped aggregate, `repeats` times.
    public func groupedAggregate(repeats: Int) -> Contender {
        Contender(
            .raw,
            run: { [self] in
                let statement = try db.prepare(Self.groupedSQL)
                let s = statement.handle
                var items = 0
                for _ in 0..<repeats {
                    var rows: [RawCategoryStats] = []
                    while sqlite3_step(s) == SQLITE_ROW {
                        rows.append(
                            RawCategoryStats(
                                name: sqlite3_column_type(s, 0) == SQLITE_NULL ? nil : s.text(0),
                                count: Int(sqlite3_column_int64(s, 1)), total: sqlite3_column_int64(s, 2),
                                averagePrice: sqlite3_column_double(s, 3), maxScore: sqlite3_column_int64(s, 4)))
                    }
                    sqlite3_reset(s)
                    items += rows.reduce(0) { $0 + $1.count }
                }
                return items
            })
    }

    static let anyAndBeginsWithSQL = """
        SELECT \(RawItem.columns) FROM ZITEM t0
        WHERE t0.ZTITLE LIKE ? ESCAPE '\\' AND EXISTS (SELECT 1 FROM ZPART p WHERE p.ZITEM = t0.Z_PK AND p.ZKIND = ?)
        """

    /// W6: LIKE (ASCII case-insensitive) for BEGINSWITH[c], with a pattern escaped by hand, tested first as
    /// it is the cheaper test; EXISTS for ANY.
    public func anyAndBeginsWith() -> Contender {
        Contender(
            .raw,
            run: { [self] in
                let statement = try db.prepare(Self.anyAndBeginsWithSQL)
                let s = statement.handle
                s.bindText(Self.likePrefix("item 1"), at: 1)
                sqlite3_bind_int64(s, 2, 3)
                var items: [RawItem] = []
                while sqlite3_step(s) == SQLITE_ROW { items.append(RawItem(s)) }
                return items.count
            })
    }

    /// `prefix%` with LIKE's wildcards escaped.
    static func likePrefix(_ prefix: String) -> String {
        var pattern = ""
        for character in prefix {
            if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
            pattern.append(character)
        }
        return pattern + "%"
    }

    /// W7: read the items below `limitCode` into structs, then in one transaction write each one's new
    /// quantity with Core Data's optimistic-locking check (`Z_OPT`).
    public func update(below limitCode: String) -> Contender {
        Contender(
            .raw,
            run: { [self] in
                try db.exec("BEGIN IMMEDIATE")
                let select = try db.prepare("SELECT \(RawItem.columns) FROM ZITEM t0 WHERE t0.ZCODE < ?")
                select.handle.bindText(limitCode, at: 1)
                var items: [RawItem] = []
                while sqlite3_step(select.handle) == SQLITE_ROW { items.append(RawItem(select.handle)) }
                sqlite3_reset(select.handle)
                let update = try db.prepare("UPDATE ZITEM SET ZQUANTITY = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?")
                let s = update.handle
                for item in items {
                    sqlite3_bind_int64(s, 1, item.quantity + 1)
                    sqlite3_bind_int64(s, 2, item.version + 1)
                    sqlite3_bind_int64(s, 3, item.id)
                    sqlite3_bind_int64(s, 4, item.version)
                    try db.check(sqlite3_step(s))
                    sqlite3_reset(s)
                    if sqlite3_changes(db.db) != 1 {
                        try db.exec("ROLLBACK")
                        throw RawSQLite.Failure(description: "item \(item.id) changed meanwhile")
                    }
                }
                try db.exec("COMMIT")
                return items.count
            })
    }

    /// W10: every item of the store at `path`, stepped one row at a time into a struct.
    public static func iterate(path: String) throws -> Int {
        let db = try RawSQLite(path: path)
        let statement = try db.prepare("SELECT \(RawItem.columns) FROM ZITEM t0")
        var count = 0
        var checksum: Int64 = 0
        while sqlite3_step(statement.handle) == SQLITE_ROW {
            let item = RawItem(statement.handle)
            checksum &+= item.quantity
            count += 1
        }
        _ = checksum
        return count
    }
}
