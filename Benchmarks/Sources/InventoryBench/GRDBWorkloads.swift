import Foundation
import GRDB

/// The workloads written with GRDB as its documentation recommends: a `DatabasePool` (WAL), the query
/// interface with Codable records, and the same with hand-written records (`init(row:)`,
/// `encode(to:)`); SQL where GRDB's guide sends aggregates and correlated subqueries.
public final class GRDBWorkloads {
    let fixture: InventoryFixture
    let pool: DatabasePool
    private var insertPool: DatabasePool?

    /// The store's settings: `synchronous=FULL` as our store and the raw baseline use.
    static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        return configuration
    }

    public init(fixture: InventoryFixture) throws {
        self.fixture = fixture
        pool = try DatabasePool(path: fixture.populatedURL.path, configuration: Self.configuration())
    }

    /// W1: records inserted in one write transaction; primary keys from Z_PRIMARYKEY as Core Data does.
    public func insert(count: Int, handWritten: Bool) -> Contender {
        let kind: Contender.Kind = handWritten ? .grdbHandWritten : .grdbCodable
        let name = handWritten ? "grdb-row-insert.sqlite" : "grdb-codable-insert.sqlite"
        return Contender(
            kind,
            prepare: { [self] in
                insertPool = nil
                insertPool = try DatabasePool(path: try fixture.freshStore(named: name).path, configuration: Self.configuration())
            },
            run: { [self] in
                guard let pool = insertPool else { return 0 }
                let entity = fixture.itemEntity
                return try pool.write { db in
                    let maximum = try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [entity]) ?? 0
                    for i in 0..<count {
                        let values = InventoryData.item(i)
                        if handWritten {
                            try GRDBItemRow(id: maximum + 1 + Int64(i), entity: entity, values: values).insert(db)
                        } else {
                            try GRDBItem(id: maximum + 1 + Int64(i), entity: entity, values: values).insert(db)
                        }
                    }
                    try db.execute(
                        sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", arguments: [maximum + Int64(count), entity])
                    return count
                }
            })
    }

    /// W2: every item as a record.
    public func fetchAll(handWritten: Bool) -> Contender {
        Contender(
            handWritten ? .grdbHandWritten : .grdbCodable,
            run: { [self] in
                try pool.read { db in
                    handWritten ? try GRDBItemRow.fetchAll(db).count : try GRDBItem.fetchAll(db).count
                }
            })
    }

    /// W3: `filter(code == c).fetchOne`, all lookups in one read.
    public func lookups(codes: [String], handWritten: Bool) -> Contender {
        Contender(
            handWritten ? .grdbHandWritten : .grdbCodable,
            run: { [self] in
                try pool.read { db in
                    var found = 0
                    for code in codes {
                        if handWritten {
                            if try GRDBItemRow.filter(Column("ZCODE") == code).fetchOne(db) != nil { found += 1 }
                        } else {
                            if try GRDBItem.filter(GRDBItem.Columns.code == code).fetchOne(db) != nil { found += 1 }
                        }
                    }
                    return found
                }
            })
    }

    /// W4: `filter(code >= low && code < high).fetchCount`.
    public func counts(ranges: [(String, String)]) -> Contender {
        Contender(
            .grdbCodable,
            run: { [self] in
                try pool.read { db in
                    var total = 0
                    for (low, high) in ranges {
                        total += try GRDBItem.filter(GRDBItem.Columns.code >= low && GRDBItem.Columns.code < high).fetchCount(db)
                    }
                    return total
                }
            })
    }

    /// W5: the grouped aggregate in SQL, decoded into records.
    public func groupedAggregate(repeats: Int, handWritten: Bool) -> Contender {
        Contender(
            handWritten ? .grdbHandWritten : .grdbCodable,
            run: { [self] in
                try pool.read { db in
                    var items = 0
                    for _ in 0..<repeats {
                        if handWritten {
                            items += try GRDBCategoryStatsRow.fetchAll(db, sql: Self.groupedSQL).reduce(0) { $0 + $1.count }
                        } else {
                            items += try GRDBCategoryStats.fetchAll(db, sql: Self.groupedSQL).reduce(0) { $0 + $1.count }
                        }
                    }
                    return items
                }
            })
    }

    static let groupedSQL = """
        SELECT c.ZNAME AS name, COUNT(t0.ZCODE) AS count, SUM(t0.ZQUANTITY) AS total, AVG(t0.ZPRICE) AS averagePrice,
               MAX(t0.ZSCORE) AS maxScore
        FROM ZITEM t0 LEFT JOIN ZCATEGORY c ON c.Z_PK = t0.ZCATEGORY GROUP BY c.ZNAME
        """

    /// W6: the query interface with an SQL snippet for the correlated EXISTS and LIKE.
    public func anyAndBeginsWith(handWritten: Bool) -> Contender {
        let condition = SQL(
            sql: "ZTITLE LIKE ? ESCAPE '\\' AND EXISTS (SELECT 1 FROM ZPART p WHERE p.ZITEM = ZITEM.Z_PK AND p.ZKIND = ?)",
            arguments: [RawWorkloads.likePrefix("item 1"), 3])
        return Contender(
            handWritten ? .grdbHandWritten : .grdbCodable,
            run: { [self] in
                try pool.read { db in
                    handWritten
                        ? try GRDBItemRow.filter(condition).fetchAll(db).count
                        : try GRDBItem.filter(condition).fetchAll(db).count
                }
            })
    }

    /// W7: fetch the records, change each one's quantity, `update(db)` each, in one write transaction.
    public func update(below limitCode: String, handWritten: Bool) -> Contender {
        Contender(
            handWritten ? .grdbHandWritten : .grdbCodable,
            run: { [self] in
                try pool.write { db in
                    if handWritten {
                        let items = try GRDBItemRow.filter(Column("ZCODE") < limitCode).fetchAll(db)
                        for var item in items {
                            item.quantity += 1
                            item.version += 1
                            try item.update(db)
                        }
                        return items.count
                    } else {
                        let items = try GRDBItem.filter(GRDBItem.Columns.code < limitCode).fetchAll(db)
                        for var item in items {
                            item.quantity += 1
                            item.version += 1
                            try item.update(db)
                        }
                        return items.count
                    }
                }
            })
    }

    /// W10: every item of the store at `path` through a record cursor.
    public static func iterate(path: String, handWritten: Bool) throws -> Int {
        let pool = try DatabasePool(path: path, configuration: configuration())
        return try pool.read { db in
            var count = 0
            var checksum: Int64 = 0
            if handWritten {
                let cursor = try GRDBItemRow.fetchCursor(db)
                while let item = try cursor.next() {
                    checksum &+= item.quantity
                    count += 1
                }
            } else {
                let cursor = try GRDBItem.fetchCursor(db)
                while let item = try cursor.next() {
                    checksum &+= item.quantity
                    count += 1
                }
            }
            _ = checksum
            return count
        }
    }
}
