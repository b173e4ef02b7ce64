import CDQIStore
import CoreDataQueryInterface
import Foundation
import GRDB

/// W13q: W13's change seen through a live query (issue 17's W13 goal: ≤ 1 ms median, ≤ 5% of a
/// refetch). `Query.from(Item.self)` over every item (`price >= 0`), sorted by price then code, observed
/// as IDs (`changes(in: container)`); another context changes one item's price and saves (untimed). Two
/// figures per change, both medians:
///
/// - **latency**: from the end of the save (its commit is done) until the live query's new element
///   reaches the observing task; the element can come before `save()` returns (a save announces
///   itself before it finishes): such an element counts 0, and the signed median is printed too;
/// - **cost**: the CPU time of the whole process from the start of the save to the element, less the
///   median CPU time of the same kind of save with nothing observing (measured first, in the same run):
///   the save's delivery, the incremental step and the element, set against the CPU time of one fetch of the same IDs on a fresh
///   context (what a live query that refetches runs after each save). CPU time does not count other
///   processes' load, which wall time on a shared machine does.
///
/// The nearest peer, in the same run: GRDB's `ValueObservation` of the same IDs (raw SQL on the same
/// table, a `DatabasePool`), one row's price updated through `pool.write`, timed the same way against
/// GRDB's own fetch of the IDs (GRDB refetches an observed region after each write that touches it).
public enum LiveQueryWorkload {
    /// The line's id for `--only`.
    public static let id = "W13q"

    /// The elements an observer receives, handed to the benchmark's thread.
    private final class Arrivals: @unchecked Sendable {
        let signal = DispatchSemaphore(value: 0)
        /// Guards the properties below.
        private let lock = NSLock()
        private var last = 0
        private var lastIDs: [ManagedObjectID] = []
        private var failure: String?
        private var arrival = ContinuousClock.now

        /// Whether the observer keeps the IDs of the elements from now on (to check the last one). Off
        /// while timing: an observer that keeps each element's results makes the live query copy them
        /// at its next change.
        private var keepsIDs = false

        func put(_ count: Int, ids: [ManagedObjectID] = []) {
            let now = ContinuousClock.now
            lock.withLock {
                last = count
                if keepsIDs { lastIDs = ids }
                arrival = now
            }
            signal.signal()
        }

        func keepIDs() { lock.withLock { keepsIDs = true } }

        /// When the last element came.
        var arrived: ContinuousClock.Instant { lock.withLock { arrival } }

        func fail(_ error: any Error) { lock.withLock { failure = "\(error)" } }

        func take() -> Int { lock.withLock { last } }
        var ids: [ManagedObjectID] { lock.withLock { lastIDs } }
        var error: String? { lock.withLock { failure } }
    }

    /// Latency, CPU cost and refetch figures of one contender, over its timed changes.
    private struct Figures {
        /// From the end of a write to the arrival of its element (negative: before the write returned).
        var arrivalAfterWrite: [Double] = []
        /// Wall and CPU time from the start of a write to its element (observed).
        var observedWall: [Double] = []
        var observedCPU: [Double] = []
        /// Wall and CPU time of the same kind of write with nothing observing.
        var writeWall: [Double] = []
        var writeCPU: [Double] = []
        var refetchWall: [Double] = []
        var refetchCPU: [Double] = []
        var missing = 0

        /// The change's latency: from the end of the write to the element (an element that came before
        /// the write returned counts 0).
        var latency: Double { max(0, Measurement.median(arrivalAfterWrite)) }
        /// The change's CPU cost: a write with its element less a write alone.
        var cost: Double { max(0, Measurement.median(observedCPU) - Measurement.median(writeCPU)) }

        /// Times `body` on the wall clock and in the process's CPU time.
        private static func timed(_ body: () throws -> Bool) rethrows -> (wall: Double, cpu: Double, ok: Bool) {
            let cpu = Measurement.processCPUSeconds()
            var ok = false
            let wall = try Measurement.seconds { ok = try body() }
            return (wall, Measurement.processCPUSeconds() - cpu, ok)
        }

        /// Times one write with nothing observing.
        mutating func write(timed: Bool, _ write: () throws -> Void) rethrows {
            let time = try Self.timed {
                try write()
                return true
            }
            guard timed else { return }
            writeWall.append(time.wall)
            writeCPU.append(time.cpu)
        }

        /// Times one observed change: the write, then the wait for its element. (The element may come
        /// before the write returns: a save announces itself before it finishes.)
        mutating func change(timed: Bool, arrivals: Arrivals, write: () throws -> Void) rethrows {
            var written = ContinuousClock.now
            let time = try Self.timed {
                try write()
                written = ContinuousClock.now
                return arrivals.signal.wait(timeout: .now() + 10) == .success
            }
            guard time.ok else {
                missing += 1
                return
            }
            guard timed else { return }
            let after = arrivals.arrived - written, before = written - arrivals.arrived
            func seconds(_ duration: Duration) -> Double {
                Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
            }
            arrivalAfterWrite.append(arrivals.arrived >= written ? seconds(after) : -seconds(before))
            observedWall.append(time.wall)
            observedCPU.append(time.cpu)
        }

        /// Times one refetch; `fetch` returns the number of rows.
        mutating func refetch(timed: Bool, rows: Int, _ fetch: () throws -> Int) rethrows {
            let cpu = Measurement.processCPUSeconds()
            var count = 0
            let seconds = try Measurement.seconds { count = try fetch() }
            let used = Measurement.processCPUSeconds() - cpu
            if count != rows { missing += 1 }
            guard timed else { return }
            refetchWall.append(seconds)
            refetchCPU.append(used)
        }

        func summary(_ name: String) -> String {
            func ms(_ seconds: Double) -> String { fixedDecimals(seconds * 1000, digits: 3) + " ms" }
            let refetch = Measurement.median(refetchWall), refetchCPU = Measurement.median(refetchCPU)
            return
                "\(name): latency \(ms(latency)) (\(fixedDecimals(latency / refetch, digits: 3)) of a refetch; element \(ms(Measurement.median(arrivalAfterWrite))) after the write returned), "
                + "CPU \(ms(cost)) (\(fixedDecimals(cost / refetchCPU, digits: 3)) of a refetch's CPU \(ms(refetchCPU))), refetch \(ms(refetch)) "
                + "(write with its element \(ms(Measurement.median(observedWall))), write alone \(ms(Measurement.median(writeWall))))"
        }
    }

    /// Runs `rounds` timed rounds (after a warm-up round) of `changesPerRound` saves and one refetch
    /// each, for ours and for GRDB.
    public static func line(fixture: InventoryFixture, rows: Int, label: String, rounds: Int, changesPerRound: Int = 20) throws -> String {
        func price(_ round: Int, _ k: Int) -> Double { Double((round * changesPerRound + k) % 10_000) / 100 + 0.005 }

        // Ours.
        let url = try fixture.makePopulatedStore(named: "live.sqlite", itemCount: rows, withParts: false)
        let container = try PersistentContainer(model: fixture.model, url: url)
        try InventoryEntities.register(on: container.coordinator)
        let query = Query.from(Item.self).filter { $0.price >= 0.0 }.order { $0.price }.order { $0.code }.ids()
        let ids = try query.all(managedObjectContext: container.newContext())
        var ours = Figures()
        // The same saves with nothing observing (other items, other prices).
        for round in 0...rounds {
            for k in 0..<changesPerRound {
                try ours.write(timed: round > 0) {
                    let writer = container.newContext()
                    let id = ids[(round * changesPerRound + k * 197 + 5_000) % rows]
                    try writer.existingObject(with: id).setValue(price(round, k) + 0.001, forKey: "price")
                    try writer.save()
                }
            }
        }
        let arrivals = Arrivals()
        let live = query.changes(in: container)
        let observer = Task.detached {
            do {
                for try await change in live { arrivals.put(change.results.count, ids: change.results) }
            } catch {
                arrivals.fail(error)
            }
        }
        defer { observer.cancel() }
        guard arrivals.signal.wait(timeout: .now() + 60) == .success, arrivals.take() == rows else {
            return "\(id): no initial element of \(rows) rows [RESULTS DIFFER]"
        }
        for round in 0...rounds {
            for k in 0..<changesPerRound {
                try ours.change(timed: round > 0, arrivals: arrivals) {
                    let writer = container.newContext()
                    let id = ids[(round * changesPerRound + k * 197) % rows]
                    try writer.existingObject(with: id).setValue(price(round, k), forKey: "price")
                    try writer.save()
                }
            }
            try ours.refetch(timed: round > 0, rows: rows) { try query.all(managedObjectContext: container.newContext()).count }
        }
        // One more change, whose element must be what a fetch gives then.
        arrivals.keepIDs()
        try ours.change(timed: false, arrivals: arrivals) {
            let writer = container.newContext()
            try writer.existingObject(with: ids[rows / 2]).setValue(0.0, forKey: "price")
            try writer.save()
        }
        let fresh = try query.all(managedObjectContext: container.newContext())
        if arrivals.take() != rows || arrivals.ids != fresh { ours.missing += 1 }
        observer.cancel()

        // GRDB's ValueObservation, on a store of its own.
        let grdbURL = try fixture.makePopulatedStore(named: "live-grdb.sqlite", itemCount: rows, withParts: false)
        let pool = try DatabasePool(path: grdbURL.path, configuration: GRDBWorkloads.configuration())
        let sql = "SELECT Z_PK FROM ZITEM WHERE ZPRICE >= ? ORDER BY ZPRICE, ZCODE, Z_PK"
        let keys = try pool.read { db in try Int64.fetchAll(db, sql: sql, arguments: [0.0]) }
        var grdb = Figures()
        for round in 0...rounds {
            for k in 0..<changesPerRound {
                try grdb.write(timed: round > 0) {
                    let key = keys[(round * changesPerRound + k * 197 + 5_000) % rows]
                    try pool.write { db in
                        try db.execute(
                            sql: "UPDATE ZITEM SET ZPRICE = ?, Z_OPT = Z_OPT + 1 WHERE Z_PK = ?", arguments: [price(round, k) + 0.001, key])
                    }
                }
            }
        }
        let grdbArrivals = Arrivals()
        let observation = ValueObservation.trackingConstantRegion { db in try Int64.fetchAll(db, sql: sql, arguments: [0.0]) }
        let cancellable = observation.start(
            in: pool, scheduling: .async(onQueue: DispatchQueue(label: "W13q.grdb")), onError: { _ in },
            onChange: { keys in grdbArrivals.put(keys.count) })
        defer { cancellable.cancel() }
        guard grdbArrivals.signal.wait(timeout: .now() + 60) == .success, grdbArrivals.take() == rows else {
            return "\(id): GRDB's observation gave no initial value of \(rows) rows [RESULTS DIFFER]"
        }
        for round in 0...rounds {
            for k in 0..<changesPerRound {
                try grdb.change(timed: round > 0, arrivals: grdbArrivals) {
                    let key = keys[(round * changesPerRound + k * 197) % rows]
                    try pool.write { db in
                        try db.execute(
                            sql: "UPDATE ZITEM SET ZPRICE = ?, Z_OPT = Z_OPT + 1 WHERE Z_PK = ?", arguments: [price(round, k), key])
                    }
                }
            }
            try grdb.refetch(timed: round > 0, rows: rows) { try pool.read { db in try Int64.fetchAll(db, sql: sql, arguments: [0.0]) }.count }
        }
        if grdbArrivals.take() != rows { grdb.missing += 1 }

        var line =
            "\(id) one change in a live query of \(label) IDs (goals ≤ 1 ms and ≤ 0.05 of a refetch; medians of \(ours.observedWall.count) changes, "
            + "as many writes alone and \(ours.refetchWall.count) refetches each): " + ours.summary("ours") + "; " + grdb.summary("GRDB ValueObservation")
            + "; ours/GRDB CPU \(fixedDecimals(ours.cost / grdb.cost, digits: 2))"
        if ours.missing > 0 || grdb.missing > 0 {
            line += " [RESULTS DIFFER: \(ours.missing) ours and \(grdb.missing) GRDB changes without a full element"
            line += (arrivals.error.map { "; the live query failed: \($0)" } ?? "") + "]"
        }
        line +=
            " [ours: Query.changes(in: container) over Item by price, code, kept incrementally; refetch: the same query's ids on a fresh context;"
            + " GRDB: ValueObservation.trackingConstantRegion of the same SQL, pool.write of one row]"
        return line
    }
}
