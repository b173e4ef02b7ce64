import CDQIStore
import CSQLiteRaw
import CoreDataQueryInterface
import Foundation
import GRDB
import Synchronization

/// W12: reads during writes. Three reader threads look items up by their indexed code, timing every
/// lookup; first with no writer, then while a writer thread saves batches of 1,000 new items, one after
/// another, until the readers are done. The line gives the lookups' p50 and p99 both ways and their
/// ratios (medians over rounds), for three contenders measured in the same run, each on a store file of its own (the writes
/// would change the other workloads' data): ours (a context per reader, W3's typed query; the writer a
/// new context per batch), GRDB (a `DatabasePool`, `pool.read` per lookup and `pool.write` per batch,
/// as its documentation recommends) and the raw C API (a connection per thread, one transaction per batch).
public struct ReadDuringWritesWorkload {
    public static let readers = 3
    public static let batchSize = 1_000
    let fixture: InventoryFixture
    let codes: [String]
    let rounds: Int

    public init(fixture: InventoryFixture, codes: [String], rounds: Int) {
        self.fixture = fixture
        self.codes = codes
        self.rounds = max(1, rounds)
    }

    /// Latencies of one run, in seconds, and the batches the writer saved meanwhile.
    struct Run {
        var latencies: [Double]
        var batches: Int

        func percentile(_ fraction: Double) -> Double {
            let sorted = latencies.sorted()
            guard !sorted.isEmpty else { return 0 }
            return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
        }
    }

    /// One way of reading and writing: a reader's lookup (made once per reader thread) and the writer.
    struct Contender: Sendable {
        var name: String
        /// Makes one reader's lookup, which throws when the code is not found.
        var makeReader: @Sendable () throws -> (String) throws -> Void
        /// Saves batches while readers are left; returns the batch count.
        var write: @Sendable (ReadersLeft) throws -> Int
    }

    /// One contender's percentiles per round, without the writer and with it, and the batches saved.
    struct Rounds {
        var quietP50: [Double] = []
        var quietP99: [Double] = []
        var busyP50: [Double] = []
        var busyP99: [Double] = []
        var batches: [Int] = []
        var missing: [String] = []
    }

    /// The W12 summary line: medians over `rounds` rounds, each running every contender without the
    /// writer and then with it, in turn (so that a stretch when the virtual machine lends fewer cores
    /// reaches all contenders alike).
    public func line() throws -> String {
        let contenders = [try ours(), try grdb(), try raw()]
        func us(_ seconds: Double) -> String { fixedDecimals(seconds * 1_000_000) + " µs" }
        let expected = Self.readers * codes.count
        var results = Array(repeating: Rounds(), count: contenders.count)
        for contender in contenders {
            _ = try run(contender, writing: false)  // warm-up: readers opened, pages cached
        }
        for _ in 0..<rounds {
            for (index, contender) in contenders.enumerated() {
                let quiet = try run(contender, writing: false)
                let busy = try run(contender, writing: true)
                results[index].quietP50.append(quiet.percentile(0.5))
                results[index].quietP99.append(quiet.percentile(0.99))
                results[index].busyP50.append(busy.percentile(0.5))
                results[index].busyP99.append(busy.percentile(0.99))
                results[index].batches.append(busy.batches)
                if quiet.latencies.count != expected || busy.latencies.count != expected {
                    results[index].missing.append("\(contender.name) \(quiet.latencies.count), \(busy.latencies.count) of \(expected)")
                }
            }
        }
        var parts: [String] = []
        var p99WithWriter: [Double] = []
        for (contender, result) in zip(contenders, results) {
            let quiet50 = Measurement.median(result.quietP50), busy50 = Measurement.median(result.busyP50)
            let quiet99 = Measurement.median(result.quietP99), busy99 = Measurement.median(result.busyP99)
            let roundRatios = zip(result.busyP99, result.quietP99).map { $0 / $1 }
            let spread = "\(fixedDecimals(roundRatios.min() ?? 0, digits: 2))–\(fixedDecimals(roundRatios.max() ?? 0, digits: 2))"
            parts.append(
                "\(contender.name) p50 \(us(quiet50)) without writer, \(us(busy50)) with "
                    + "(×\(fixedDecimals(busy50 / quiet50, digits: 2))); p99 \(us(quiet99)) without, \(us(busy99)) with "
                    + "(×\(fixedDecimals(busy99 / quiet99, digits: 2)); rounds ×\(spread)); "
                    + "\(result.batches.sorted()[result.batches.count / 2]) batches saved meanwhile (median)")
            p99WithWriter.append(busy99)
        }
        func share(_ index: Int) -> String { fixedDecimals(p99WithWriter[0] / p99WithWriter[index], digits: 2) }
        var line =
            "W12 reads during writes (\(Self.readers) readers × \(codes.count) lookups, writer saving "
            + "\(Self.batchSize)-object batches; medians of \(rounds) rounds): " + parts.joined(separator: "; ")
            + "; p99 with writer ours/raw \(share(2)), ours/GRDB \(share(1))"
        let missing = results.flatMap(\.missing)
        if !missing.isEmpty { line += " [LOOKUPS MISSING: \(missing.joined(separator: ", "))]" }
        return line
    }

    /// One run: the readers, and with `writing` the writer until the readers are done.
    func run(_ contender: Contender, writing: Bool) throws -> Run {
        let codes = self.codes
        let readersLeft = ReadersLeft(Self.readers)
        let threads = Self.readers + (writing ? 1 : 0)
        let results: [[Double]] = try ConcurrentRuns.run(threads) { index in
            if index == Self.readers {
                return [Double(try contender.write(readersLeft))]
            }
            defer { readersLeft.count.subtract(1, ordering: .releasing) }
            let lookup = try contender.makeReader()
            var latencies: [Double] = []
            latencies.reserveCapacity(codes.count)
            for code in codes {
                let start = DispatchTime.now().uptimeNanoseconds
                try lookup(code)
                latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            return latencies
        }
        return Run(latencies: results.prefix(Self.readers).flatMap { $0 }, batches: writing ? Int(results[Self.readers].first ?? 0) : 0)
    }

    // MARK: Ours

    func ours() throws -> Contender {
        let url = try fixture.makePopulatedStore(named: "w12-ours.sqlite", itemCount: fixture.data.itemCount, withParts: false)
        let container = try PersistentContainer(model: fixture.model, url: url)
        try InventoryEntities.register(on: container.coordinator)
        return Contender(
            name: "ours",
            makeReader: {
                let context = container.newContext()
                return { code in
                    guard let item = try context.from(Item.self).filter({ $0.code == code }).first(), item.code == code else {
                        throw RawSQLite.Failure(description: "W12: no item \(code)")
                    }
                }
            },
            write: { readersLeft in
                var batches = 0
                var next = 0
                while readersLeft.count.load(ordering: .acquiring) > 0 {
                    let context = container.newContext()
                    for _ in 0..<Self.batchSize {
                        try context.insert(Item.self).assign(Self.written(next))
                        next += 1
                    }
                    _ = try context.save()
                    batches += 1
                }
                return batches
            })
    }

    // MARK: GRDB

    func grdb() throws -> Contender {
        let url = try fixture.makePopulatedStore(named: "w12-grdb.sqlite", itemCount: fixture.data.itemCount, withParts: false)
        let pool = try DatabasePool(path: url.path, configuration: GRDBWorkloads.configuration())
        let itemEntity = fixture.itemEntity
        return Contender(
            name: "GRDB (DatabasePool, row init)",
            makeReader: {
                { code in
                    let found = try pool.read { db in try GRDBItemRow.filter(Column("ZCODE") == code).fetchOne(db) }
                    guard found != nil else { throw RawSQLite.Failure(description: "W12: GRDB found no item \(code)") }
                }
            },
            write: { readersLeft in
                var batches = 0
                var next = 0
                while readersLeft.count.load(ordering: .acquiring) > 0 {
                    try pool.write { db in
                        let first = (try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [itemEntity]) ?? 0) + 1
                        let insert = try db.cachedStatement(sql: Self.insertSQL)
                        for offset in 0..<Int64(Self.batchSize) {
                            let item = Self.written(next)
                            try insert.execute(arguments: [
                                first + offset, itemEntity, item.active ? 1 : 0, item.code,
                                item.createdAt.timeIntervalSinceReferenceDate, item.price, item.quantity, Int64(item.rank),
                                Int64(item.score), item.title,
                            ])
                            next += 1
                        }
                        try db.execute(
                            sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?",
                            arguments: [first + Int64(Self.batchSize) - 1, itemEntity])
                    }
                    batches += 1
                }
                return batches
            })
    }

    // MARK: Raw

    func raw() throws -> Contender {
        let url = try fixture.makePopulatedStore(named: "w12-raw.sqlite", itemCount: fixture.data.itemCount, withParts: false)
        let path = url.path
        let itemEntity = fixture.itemEntity
        return Contender(
            name: "raw",
            makeReader: {
                let db = try RawSQLite(path: path)
                let lookup = try db.prepare("SELECT \(RawItem.columns) FROM ZITEM t0 WHERE t0.ZCODE = ? LIMIT 1")
                return { code in
                    // The reader's connection lives as long as its lookup.
                    withExtendedLifetime(db) {}
                    defer { sqlite3_reset(lookup.handle) }
                    lookup.handle.bindText(code, at: 1)
                    guard sqlite3_step(lookup.handle) == SQLITE_ROW, RawItem(lookup.handle).code == code else {
                        throw RawSQLite.Failure(description: "W12: raw found no item \(code)")
                    }
                }
            },
            write: { readersLeft in
                let db = try RawSQLite(path: path)
                let maxKey = try db.prepare("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?")
                let insert = try db.prepare(Self.insertSQL)
                let update = try db.prepare("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?")
                var batches = 0
                var next = 0
                while readersLeft.count.load(ordering: .acquiring) > 0 {
                    try db.exec("BEGIN IMMEDIATE")
                    sqlite3_bind_int64(maxKey.handle, 1, itemEntity)
                    guard sqlite3_step(maxKey.handle) == SQLITE_ROW else { throw RawSQLite.Failure(description: "W12: no Z_MAX") }
                    let first = sqlite3_column_int64(maxKey.handle, 0) + 1
                    sqlite3_reset(maxKey.handle)
                    let s = insert.handle
                    for offset in 0..<Int64(Self.batchSize) {
                        s.bindItem(Self.written(next), key: first + offset, entity: itemEntity)
                        try db.check(sqlite3_step(s))
                        sqlite3_reset(s)
                        next += 1
                    }
                    sqlite3_bind_int64(update.handle, 1, first + Int64(Self.batchSize) - 1)
                    sqlite3_bind_int64(update.handle, 2, itemEntity)
                    try db.check(sqlite3_step(update.handle))
                    sqlite3_reset(update.handle)
                    try db.exec("COMMIT")
                    batches += 1
                }
                return batches
            })
    }

    /// The writer's insert for GRDB and raw (the same columns ours' save writes for these items).
    static let insertSQL = RawItemInsert.sql(withCategory: false)

    /// The writer's item `i`: `InventoryData`'s with its code prefixed with W (the writer leaves out its category).
    static func written(_ i: Int) -> InventoryData.Item {
        var item = InventoryData.item(i)
        item.code = "W" + item.code
        return item
    }
}

/// The number of W12 readers still reading, shared by the readers and the writer.
final class ReadersLeft: Sendable {
    let count: Atomic<Int>

    init(_ count: Int) { self.count = Atomic(count) }
}
