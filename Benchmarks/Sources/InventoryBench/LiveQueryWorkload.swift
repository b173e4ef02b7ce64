import CDQIStore
import CoreDataQueryInterface
import Foundation

/// W13q: W13's change seen through a live query. `Query.from(Item.self)` over every item, sorted by
/// price then code, observed as IDs (`changes(in:)`); another context changes one item's price and
/// saves (untimed), and the time from the end of the save until the live query's new element reaches
/// the observing task is set against one fetch of the same IDs on a fresh context (what the live query
/// runs after each save). A live query refetches, so this ratio is above 1 by design; the goal of W13 is
/// met by the controller (the W13 line).
public enum LiveQueryWorkload {
    /// The line's id for `--only`.
    public static let id = "W13q"

    /// The elements the observing task receives, handed to the benchmark's thread.
    private final class Arrivals: @unchecked Sendable {
        let signal = DispatchSemaphore(value: 0)
        /// Guards `last`.
        private let lock = NSLock()
        private var last: LiveQueryChange<ManagedObjectID>?

        func put(_ change: LiveQueryChange<ManagedObjectID>) {
            lock.withLock { last = change }
            signal.signal()
        }

        func take() -> LiveQueryChange<ManagedObjectID>? { lock.withLock { last } }
    }

    /// Runs `rounds` timed rounds (after a warm-up round) of `changesPerRound` saves and one refetch each.
    public static func line(fixture: InventoryFixture, rows: Int, label: String, rounds: Int, changesPerRound: Int = 20) throws -> String {
        let url = try fixture.makePopulatedStore(named: "live.sqlite", itemCount: rows, withParts: false)
        let container = try PersistentContainer(model: fixture.model, url: url)
        try InventoryEntities.register(on: container.coordinator)
        let query = Query.from(Item.self).filter { $0.price >= 0.0 }.order { $0.price }.order { $0.code }.ids()
        let arrivals = Arrivals()
        let live = query.changes(in: container)
        let observer = Task.detached {
            for try await change in live { arrivals.put(change) }
        }
        defer { observer.cancel() }
        guard arrivals.signal.wait(timeout: .now() + 60) == .success, let initial = arrivals.take(), initial.results.count == rows else {
            return "\(id): no initial element of \(rows) rows [RESULTS DIFFER]"
        }
        let ids = initial.results

        var delivered: [Double] = [], refetch: [Double] = []
        var missing = 0
        let clock = ContinuousClock()
        for round in 0...rounds {
            let timed = round > 0
            for k in 0..<changesPerRound {
                let writer = container.newContext()
                let id = ids[(round * changesPerRound + k * 197) % rows]
                try writer.existingObject(with: id).setValue(Double((round * changesPerRound + k) % 10_000) / 100 + 0.005, forKey: "price")
                try writer.save()
                let start = clock.now
                guard arrivals.signal.wait(timeout: .now() + 10) == .success else {
                    missing += 1
                    continue
                }
                let elapsed = clock.now - start
                if timed { delivered.append(Double(elapsed.components.attoseconds) * 1e-18 + Double(elapsed.components.seconds)) }
            }
            let context = container.newContext()
            var count = 0
            let seconds = try Measurement.seconds { count = try query.all(managedObjectContext: context).count }
            if timed { refetch.append(seconds) }
            if count != rows { missing += 1 }
        }
        let refetchMedian = Measurement.median(refetch)
        func ms(_ seconds: Double) -> String { fixedDecimals(seconds * 1000, digits: 3) + " ms" }
        var line =
            "\(id) one change in a live query of \(label) IDs: save to element \(ms(Measurement.median(delivered))), "
            + "refetch \(ms(refetchMedian)), live/refetch \(fixedDecimals(Measurement.median(delivered) / refetchMedian, digits: 2)) "
            + "(medians of \(delivered.count) changes and \(refetch.count) refetches)"
        if missing > 0 || arrivals.take()?.results.count != rows { line += " [RESULTS DIFFER: \(missing) changes without an element]" }
        line += " [ours: Query.changes(in: container) over Item sorted by price, code; refetch: the same query's ids on a fresh context]"
        return line
    }
}
