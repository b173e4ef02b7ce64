import CDQIStore
import CSQLiteRaw
import CoreDataQueryInterface
import Foundation
import GRDB

/// W11: parallel reads. Four units of work, each `lookups` indexed lookups plus one fetch of every
/// item, done by one worker thread in sequence, then split over four worker threads at once: the
/// speed-up is the sequential time over the parallel one. The workers are long-lived, as a server's
/// are (``ConcurrentRuns``), and the sequential units run on one of them, so that both ways run on
/// threads of the same kind. Ours reads through the coordinator's pool of readers (a new context per
/// unit), GRDB through a `DatabasePool` (`pool.read` per unit, hand-written records), the raw C API
/// through a connection per unit. The line gives each contender's CPU time too (every thread of the
/// process): four tasks using more CPU than one for the same work is contention (locks, shared cache
/// lines, page faults); the same CPU but less than half the wall-clock time gained means the machine
/// did not lend a second core meanwhile. The page faults each way (the process's minor faults) tell
/// the kernel's share: a heap given back to the system between units is faulted in again; the waits
/// (voluntary context switches) tell how often a thread slept on a lock or a condition.
public struct ParallelReadWorkload {
    public static let units = 4
    let fixture: InventoryFixture
    let codes: [String]
    let rounds: Int

    public init(fixture: InventoryFixture, codes: [String], rounds: Int) {
        self.fixture = fixture
        self.codes = codes
        self.rounds = rounds
    }

    /// One contender's timed rounds: what one worker doing the four units cost, and what four workers
    /// doing one each cost.
    struct Samples {
        var sequential: [ProcessUsage] = []
        var parallel: [ProcessUsage] = []
    }

    /// The W11 summary line.
    public func line(label: String) throws -> String {
        let container = try PersistentContainer(model: fixture.model, url: fixture.populatedURL)
        try InventoryEntities.register(on: container.coordinator)
        let pool = try DatabasePool(path: fixture.populatedURL.path, configuration: GRDBWorkloads.configuration())
        let path = fixture.populatedURL.path
        let codes = self.codes
        let expected = Self.units * (codes.count + fixture.data.itemCount)
        let contenders: [(String, @Sendable () throws -> Int)] = [
            ("ours", { try Self.oursUnit(container: container, codes: codes) }),
            ("GRDB (DatabasePool, row init)", { try Self.grdbUnit(pool: pool, codes: codes) }),
            ("raw", { try Self.rawUnit(path: path, codes: codes) }),
        ]
        var mismatches: [String] = []
        var samples = Array(repeating: Samples(), count: contenders.count)
        // A warm-up round, then the timed ones. Each round runs every contender in turn, so that a
        // stretch of time when the machine lends fewer cores reaches all contenders alike (on a shared
        // virtual machine, a second core is not always there).
        for round in 0...rounds {
            for (index, (name, unit)) in contenders.enumerated() {
                // On a worker too, so that both ways run on threads of the same kind (the calling thread's
                // heap is glibc's main arena, the workers' are arenas of their own).
                let (found, one) = try ProcessUsage.measure {
                    try ConcurrentRuns.run(1) { _ in
                        var total = 0
                        for _ in 0..<Self.units { total += try unit() }
                        return total
                    }[0]
                }
                if found != expected { mismatches.append("\(name) 1 task \(found)") }
                let (results, four) = try ProcessUsage.measure { try ConcurrentRuns.run(Self.units) { _ in try unit() } }
                if results.reduce(0, +) != expected { mismatches.append("\(name) 4 tasks \(results.reduce(0, +))") }
                guard round > 0 else { continue }
                samples[index].sequential.append(one)
                samples[index].parallel.append(four)
            }
        }
        let medians = samples.map { (one: ProcessUsage.medians($0.sequential), four: ProcessUsage.medians($0.parallel)) }
        func ms(_ seconds: Double) -> String { fixedDecimals(seconds * 1000) + " ms" }
        var parts: [String] = []
        for ((name, _), (one, four)) in zip(contenders, medians) {
            parts.append(
                "\(name) 1 task \(ms(one.seconds)), 4 tasks \(ms(four.seconds)), speed-up \(fixedDecimals(one.seconds / four.seconds, digits: 2))×"
                    + " (CPU \(ms(one.cpuSeconds)) and \(ms(four.cpuSeconds)), ×\(fixedDecimals(four.cpuSeconds / one.cpuSeconds, digits: 2));"
                    + " page faults \(Int(one.minorFaults)) and \(Int(four.minorFaults));"
                    + " waits \(Int(one.waits)) and \(Int(four.waits)))"
            )
        }
        parts.append("ours/GRDB (4 tasks) \(fixedDecimals(medians[0].four.seconds / medians[1].four.seconds, digits: 2))")
        var line = "W11 parallel reads 4×(\(codes.count) lookups + fetch \(label)): " + parts.joined(separator: "; ")
        if !mismatches.isEmpty { line += " [RESULTS DIFFER: \(mismatches.joined(separator: ", "))]" }
        return line
    }

    /// One unit through a new context: the typed lookups of W3, then every item (W2).
    static func oursUnit(container: PersistentContainer, codes: [String]) throws -> Int {
        let context = container.newContext()
        var found = 0
        for code in codes {
            if let item = try context.from(Item.self).filter({ $0.code == code }).first(), item.code == code { found += 1 }
        }
        return found + (try context.fetch(FetchRequest(entityName: "Item")).count)
    }

    /// One unit in one `pool.read`: W3's and W2's hand-written-record forms.
    static func grdbUnit(pool: DatabasePool, codes: [String]) throws -> Int {
        try pool.read { db in
            var found = 0
            for code in codes where try GRDBItemRow.filter(Column("ZCODE") == code).fetchOne(db) != nil { found += 1 }
            return found + (try GRDBItemRow.fetchAll(db).count)
        }
    }

    /// One unit on a connection of its own: W3's and W2's statements.
    static func rawUnit(path: String, codes: [String]) throws -> Int {
        let db = try RawSQLite(path: path)
        let lookup = try db.prepare("SELECT \(RawItem.columns) FROM ZITEM t0 WHERE t0.ZCODE = ? LIMIT 1")
        var found = 0
        for code in codes {
            lookup.handle.bindText(code, at: 1)
            if sqlite3_step(lookup.handle) == SQLITE_ROW, RawItem(lookup.handle).code == code { found += 1 }
            sqlite3_reset(lookup.handle)
        }
        let all = try db.prepare("SELECT \(RawItem.columns) FROM ZITEM t0")
        var items: [RawItem] = []
        while sqlite3_step(all.handle) == SQLITE_ROW { items.append(RawItem(all.handle)) }
        return found + items.count
    }
}
